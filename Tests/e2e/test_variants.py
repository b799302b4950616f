"""Save as variant: live props written as a named variant file, loaded again after a restart."""
import json

import requests

from conftest import Server

PROFILE = "profile-user-profile--default"


def test_save_as_variant_survives_a_restart(tmp_path):
    variants = tmp_path / "Variants"
    first = Server("--variants-dir", str(variants), state_dir=tmp_path / "state")
    try:
        requests.patch(first.url + f"/api/stories/{PROFILE}/props",
                       json=[{"op": "replace", "path": "/email", "value": "grace@example,com"}], timeout=5)
        saved = requests.post(first.url + f"/api/stories/{PROFILE}/save", json={"name": "Typo in email"}, timeout=5)
        assert saved.status_code == 201, saved.text
        assert saved.json()["id"] == "profile-user-profile--typo-in-email"
        index = first.get("/api/index.json").json()
        profile = next(c for c in index["components"] if c["id"] == "profile-user-profile")
        assert {"id": "profile-user-profile--typo-in-email", "name": "Typo in email", "saved": True} in profile["stories"]
        story = first.get("/api/stories/profile-user-profile--typo-in-email").json()
        assert story["props"]["email"] == "grace@example,com" and story["version"] == 1
        assert "grace@example,com" in first.get("/render/profile-user-profile--typo-in-email.txt").text
        collision = requests.post(first.url + f"/api/stories/{PROFILE}/save", json={"name": "typo in EMAIL!"}, timeout=5)
        assert collision.status_code == 409 and collision.json()["error"]["code"] == "conflict"
        registered = requests.post(first.url + f"/api/stories/{PROFILE}/save", json={"name": "No avatar"}, timeout=5)
        assert registered.status_code == 409
        for bad in ({"name": "../../etc"}, {"name": "???"}, {"name": 5}, {}):
            response = requests.post(first.url + f"/api/stories/{PROFILE}/save", json=bad, timeout=5)
            if bad == {"name": "../../etc"}:
                assert response.status_code == 201 and response.json()["id"] == "profile-user-profile--etc"
            else:
                assert response.status_code == 400, (bad, response.text)
    finally:
        assert first.stop() == 0

    files = sorted(path.name for path in variants.iterdir())
    assert files == ["profile-user-profile.json"]
    document = json.loads((variants / "profile-user-profile.json").read_text())
    assert document["variants"]["Typo in email"]["email"] == "grace@example,com"
    text = (variants / "profile-user-profile.json").read_text()
    assert text == json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"  # pretty, sorted keys

    second = Server("--variants-dir", str(variants), state_dir=tmp_path / "state")
    try:
        story = second.get("/api/stories/profile-user-profile--typo-in-email")
        assert story.status_code == 200 and story.json()["props"]["email"] == "grace@example,com"
    finally:
        second.stop()


def test_a_saved_variant_that_no_longer_decodes_is_listed_with_its_error(tmp_path):
    variants = tmp_path / "Variants"
    variants.mkdir()
    (variants / "profile-user-profile.json").write_text(json.dumps({
        "component": "profile-user-profile", "title": "Profile/User Profile",
        "variants": {"Old shape": {"fullName": "x"}, "Fine": {"name": "F", "email": "f@x", "avatarURL": None}}}))
    server = Server("--variants-dir", str(variants))
    try:
        index = server.get("/api/index.json").json()
        profile = next(c for c in index["components"] if c["id"] == "profile-user-profile")
        assert any(s["id"] == "profile-user-profile--fine" for s in profile["stories"])
        assert [u["name"] for u in profile["unloadable"]] == ["Old shape"]
        assert "missing field name" in profile["unloadable"][0]["error"] or "unknown field" in profile["unloadable"][0]["error"]
        requests.patch(server.url + "/api/stories/profile-user-profile--fine/props",
                       json=[{"op": "replace", "path": "/name", "value": "G"}], timeout=5)
        requests.post(server.url + "/api/stories/profile-user-profile--fine/save", json={"name": "Another"}, timeout=5)
    finally:
        server.stop()
    kept = json.loads((variants / "profile-user-profile.json").read_text())["variants"]
    assert set(kept) == {"Old shape", "Fine", "Another"}
