"""CI review against the real binary and server: `storybook export`, `storybook check` with goldens,
JUnit reports, and the HTTP routes CI polls (`/render` and `/api/projections` with ETags)."""
import json
import pathlib
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET

import requests

from conftest import BINARY, ROOT

FILLED = "auth-login--filled"


def storybook(*args, cwd=None, timeout=120):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def export(out, *args):
    result = storybook("export", "--out", str(out), *args)
    assert result.returncode == 0, result.stderr
    return result


def check(snapshots, *args):
    return storybook("check", "--snapshots", str(snapshots), *args)


def tree(root):
    root = pathlib.Path(root)
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def index_stories(root):
    index = json.loads((pathlib.Path(root) / "index.json").read_text())
    return [story for component in index["components"] for story in component["stories"]]


# The demo catalog's one `todo` component: its findings are listed, never failed, and counted in the summary.
TODO = "; accessibility: 0 errors, 4 todo or warning"


def one_error_line(result):
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and "Fatal error" not in result.stderr
    return lines[0]


# --- export -----------------------------------------------------------------------------

def test_export_twice_is_byte_identical(tmp_path):
    first = export(tmp_path / "first")
    export(tmp_path / "second")
    assert tree(tmp_path / "first") == tree(tmp_path / "second")
    stories = index_stories(tmp_path / "first")
    files = set(tree(tmp_path / "first"))
    assert first.stdout == f"exported {len(stories)} stories ({len(files)} files) to {tmp_path / 'first'}\n"
    # Four files a story, and three per environment of the matrix where the story renders differently.
    environments = {name for name in files if "@" in name}
    assert files - environments == {f"{s['id']}.{ext}" for s in stories for ext in ("txt", "a11y.txt", "html", "json")} | {"index.json", "index.html"}
    assert "media-movie-detail--default@de-DE.txt" in environments and not any(name.startswith("auth-login") for name in environments)
    # Exporting over a previous export replaces it, stale stories included, and leaves nothing beside it.
    export(tmp_path / "second", "--synthetic", "12")
    assert len(index_stories(tmp_path / "second")) == len(stories) + 12
    export(tmp_path / "second")
    assert tree(tmp_path / "first") == tree(tmp_path / "second")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "second"]


def test_export_equals_what_the_server_renders(server, tmp_path):
    export(tmp_path / "out")
    files = tree(tmp_path / "out")
    stories = index_stories(tmp_path / "out")
    assert [s["id"] for s in stories] == [s["id"] for c in server.get("/api/index.json").json()["components"] for s in c["stories"]]
    for story in stories:
        for extension in ("txt", "html"):
            response = server.get(f"/render/{story['id']}.{extension}")
            assert response.content == files[f"{story['id']}.{extension}"], story["id"]
            assert response.headers["ETag"] == f'"{story["hashes"][extension]}"'
    profile = json.loads(files["profile-user-profile--default.json"])
    assert profile == {"avatarURL": "https://example.com/ada.png", "email": "ada@example.com", "name": "Ada Lovelace"}
    assert files["profile-user-profile--default.json"].decode() == json.dumps(profile, indent=2, sort_keys=True) + "\n"
    page = files["index.html"].decode()
    assert page.startswith("<!doctype html>") and f'<a href="{FILLED}.txt">text</a>' in page and f'<a href="{FILLED}.html">html</a>' in page


def test_export_refuses_a_directory_that_is_not_an_export(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    result = storybook("export", "--out", str(mine))
    assert result.returncode == 1
    assert "refusing to replace" in one_error_line(result) and "index.json" in result.stderr
    assert tree(mine) == {"notes.txt": b"keep me"}
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]
    (tmp_path / "file").write_text("x")
    assert "is not a directory" in one_error_line(storybook("export", "--out", str(tmp_path / "file")))


def test_an_export_that_fails_midway_leaves_no_tree_and_no_temporary_directory(tmp_path):
    """A user directory appears at the destination while the export is writing: the export must
    refuse at the end, leave the user's directory alone and remove its temporary directory."""
    out = tmp_path / "out"
    process = subprocess.Popen([BINARY, "export", "--out", str(out), "--synthetic", "5000"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    temporary = tmp_path / f"out.tmp-{process.pid}"
    deadline = time.monotonic() + 30
    while not temporary.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert temporary.is_dir(), "the export writes into a temporary sibling directory"
    out.mkdir()
    (out / "draft.md").write_text("mine")
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 1
    assert len(stderr.strip().splitlines()) == 1 and "refusing to replace" in stderr
    assert tree(out) == {"draft.md": b"mine"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_export_usage_errors_create_nothing(tmp_path):
    result = storybook("export", "--out", str(tmp_path / "x"), "--bogus")
    assert result.returncode != 0 and one_error_line(result)
    assert storybook("export").returncode != 0
    assert list(tmp_path.iterdir()) == []


# --- check ------------------------------------------------------------------------------

def snapshots(tmp_path):
    directory = tmp_path / "Snapshots"
    export(directory)
    return directory


def summary(result):
    return result.stdout.strip().splitlines()[-1]


def test_check_clean(tmp_path):
    directory = snapshots(tmp_path)
    count = len(index_stories(directory))
    result = check(directory)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.endswith(f"{count} unchanged, 0 changed, 0 new, 0 removed{TODO}\n")
    assert [line for line in result.stdout.splitlines() if line.startswith("a11y todo: settings-account-form--broken ")] == result.stdout.splitlines()[:4]


def test_check_after_editing_a_golden_prints_a_diff_patch_can_apply(tmp_path):
    directory = snapshots(tmp_path)
    count = len(index_stories(directory))
    golden = directory / f"{FILLED}.txt"
    current = golden.read_text()
    golden.write_text(current.replace('button "Log in"', 'button "Sign in"'))
    pristine = tmp_path / "pristine"
    shutil.copytree(directory, pristine)

    result = check(directory)
    assert result.returncode == 1
    assert f"changed: {FILLED} (Auth/Login / Filled)\n--- a/{FILLED}.txt\n+++ b/{FILLED}.txt\n@@ " in result.stdout
    assert '-  button "Sign in" -> login\n+  button "Log in" -> login\n' in result.stdout
    assert summary(result) == f"{count - 1} unchanged, 1 changed, 0 new, 0 removed{TODO}"
    # The hunks are what GNU diff prints for the same change (its headers carry timestamps).
    (tmp_path / "current.txt").write_text(current)
    gnu = subprocess.run(["diff", "-u", str(golden), str(tmp_path / "current.txt")], capture_output=True, text=True)
    assert gnu.stdout.split("\n", 2)[2] in result.stdout
    # And `patch -p1` applies the printed diff, turning the goldens into the current projections.
    patched = subprocess.run(["patch", "-p1", "-d", str(pristine)], input=result.stdout, capture_output=True, text=True)
    assert patched.returncode == 0, patched.stdout + patched.stderr
    assert (pristine / f"{FILLED}.txt").read_text() == current


def test_record_then_clean(tmp_path):
    directory = snapshots(tmp_path)
    count = len(index_stories(directory))
    (directory / f"{FILLED}.html").write_text("<p>old</p>\n")
    for extension in ("txt", "a11y.txt", "html", "json"):
        (directory / f"profile-user-profile--default.{extension}").unlink()
    before = check(directory)
    assert before.returncode == 1
    assert "new: profile-user-profile--default (Profile/User Profile / Default): no golden" in before.stdout
    assert summary(before) == f"{count - 2} unchanged, 1 changed, 1 new, 0 removed{TODO}"
    recorded = check(directory, "--record")
    assert recorded.returncode == 0, recorded.stdout
    assert f"changed: {FILLED} (Auth/Login / Filled), recorded" in recorded.stdout
    assert summary(recorded) == f"{count - 2} unchanged, 1 changed, 1 new, 0 removed{TODO}"
    after = check(directory)
    assert after.returncode == 0 and summary(after) == f"{count} unchanged, 0 changed, 0 new, 0 removed{TODO}"
    export(tmp_path / "fresh")
    assert tree(directory) == tree(tmp_path / "fresh")
    assert not [p for p in directory.iterdir() if p.name.startswith(".")]


def test_record_creates_a_missing_directory_identical_to_an_export(tmp_path):
    recorded = check(tmp_path / "new" / "Snapshots", "--record")
    assert recorded.returncode == 0, recorded.stderr
    export(tmp_path / "fresh")
    assert tree(tmp_path / "new" / "Snapshots") == tree(tmp_path / "fresh")


def test_prune_removes_goldens_of_stories_that_are_gone(tmp_path):
    directory = tmp_path / "Snapshots"
    export(directory, "--synthetic", "3")
    (directory / "README.md").write_text("goldens for CI")
    count = len(index_stories(directory)) - 3
    result = check(directory)
    assert result.returncode == 1
    assert "removed: synthetic-group-000-card-0000--default: no such story (--prune deletes its goldens)" in result.stdout
    assert summary(result) == f"{count} unchanged, 0 changed, 0 new, 3 removed{TODO}"
    assert check(directory, "--record").returncode == 1  # recording does not delete
    pruned = check(directory, "--prune")
    assert pruned.returncode == 0, pruned.stdout
    assert "removed: synthetic-group-000-card-0000--empty, pruned" in pruned.stdout
    assert not list(directory.glob("synthetic-*"))
    assert (directory / "README.md").read_text() == "goldens for CI"
    assert summary(check(directory)) == f"{count} unchanged, 0 changed, 0 new, 0 removed{TODO}"
    assert len(index_stories(directory)) == count  # the index was refreshed


def test_junit_report_parses_and_names_the_failure(tmp_path):
    directory = snapshots(tmp_path)
    count = len(index_stories(directory))
    golden = directory / f"{FILLED}.txt"
    golden.write_text(golden.read_text() + 'text "]]> & <b>\x01"\n')
    (directory / "gone-component--old.txt").write_text("x\n")
    report = tmp_path / "reports" / "snapshots.xml"
    result = check(directory, "--junit", str(report))
    assert result.returncode == 1
    root = ET.parse(report).getroot()
    suite = root.find("testsuite")
    assert suite.get("tests") == str(count + 2) and suite.get("failures") == "2"
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert len(cases) == count + 2 and cases["profile-user-profile--default"].find("failure") is None
    # The todo story's findings are an accessibility case of its own, listed and not failed.
    todo = cases["settings-account-form--broken accessibility"]
    assert todo.find("failure") is None and "a11y todo: settings-account-form--broken /0/1 image-alt" in todo.find("system-out").text
    failure = cases[FILLED].find("failure")
    assert failure.get("type") == "changed" and FILLED in failure.get("message")
    assert f"--- a/{FILLED}.txt" in failure.text and '-text "]]> & <b>\ufffd"' in failure.text
    assert cases["gone-component--old"].find("failure").get("type") == "removed"
    assert cases[FILLED].get("classname") == "auth-login"


def test_check_errors_are_one_line_with_exit_2(tmp_path):
    missing = check(tmp_path / "nowhere")
    assert missing.returncode == 2 and "does not exist" in one_error_line(missing) and "--record" in missing.stderr
    directory = snapshots(tmp_path)
    (directory / f"{FILLED}.json").unlink()
    (directory / f"{FILLED}.json").mkdir()
    unreadable = check(directory)
    assert unreadable.returncode == 2 and f"{FILLED}.json" in one_error_line(unreadable)
    assert check(tmp_path / "Snapshots" / "index.json").returncode == 2


# --- HTTP for CI ------------------------------------------------------------------------

def test_render_in_an_environment_matches_its_golden():
    """`render --format a11y` and the environment flags give the bytes export and check keep."""
    snapshots = ROOT / "Snapshots"
    for story in ["auth-login--filled", "settings-account-form--broken"]:
        run = storybook("render", story, "--format", "a11y")
        assert run.returncode == 0, run.stderr
        assert run.stdout == (snapshots / f"{story}.a11y.txt").read_text()
    flags = {"accessibility3": ["--dynamic-type", "accessibility3"], "de-DE": ["--locale", "de-DE"],
             "rtl": ["--layout-direction", "rtl"]}
    golden_names = sorted(path.name for path in snapshots.glob("*@*.txt"))
    assert golden_names, "the demo declares environments: their goldens are committed"
    for name in golden_names:
        story, rest = name.split("@", 1)
        environment, extension = rest.split(".", 1)
        run = storybook("render", story, "--format", "a11y" if extension == "a11y.txt" else "text", *flags[environment])
        assert run.returncode == 0, run.stderr
        assert run.stdout == (snapshots / name).read_text(), name
    refused = storybook("render", "auth-login--filled", "--color-scheme", "purple")
    assert refused.returncode != 0 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [refused.stderr.strip()]
    assert "colorScheme 'purple' is not allowed; allowed: light, dark" in refused.stderr


def test_render_etag_and_304(server):
    response = server.get(f"/render/{FILLED}.html")
    etag = response.headers["ETag"]
    assert etag.startswith('"') and response.status_code == 200
    again = server.get(f"/render/{FILLED}.html", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert server.get(f"/render/{FILLED}.html", headers={"If-None-Match": '"0000"'}).status_code == 200


def test_projections_with_etag_and_304(server, tmp_path):
    export(tmp_path / "out")
    hashes = {s["id"]: s["hashes"] for s in index_stories(tmp_path / "out")}
    for fmt, extension in (("text", "txt"), ("html", "html")):
        response = server.get(f"/api/projections?format={fmt}")
        assert response.status_code == 200 and response.headers["Content-Type"] == "application/json; charset=utf-8"
        body = response.json()
        assert body["v"] == 1 and body["format"] == fmt
        assert [s["id"] for s in body["stories"]] == list(hashes)
        for story in body["stories"]:
            assert story["hash"] == hashes[story["id"]][extension]
            assert story["body"].encode() == (tmp_path / "out" / f"{story['id']}.{extension}").read_bytes()
        etag = response.headers["ETag"]
        cached = server.get(f"/api/projections?format={fmt}", headers={"If-None-Match": etag})
        assert cached.status_code == 304 and cached.content == b""
    render = server.get(f"/render/{FILLED}.txt")
    assert render.headers["ETag"] == f'"{hashes[FILLED]["txt"]}"'
    assert server.get("/api/projections?format=pdf").status_code == 400
    assert requests.delete(server.url + "/api/projections", timeout=5).status_code == 405


def test_fetch_only_what_changed_since_known_hashes(server):
    everything = server.get("/api/projections?format=text").json()["stories"]
    known = {story["id"]: story["hash"] for story in everything}
    none_changed = requests.post(server.url + "/api/projections?format=text", json={"known": known}, timeout=10).json()
    assert none_changed == {"v": 1, "format": "text", "stories": [], "removed": [], "unchanged": len(everything)}
    known[FILLED] = "0123456789abcdef"
    del known["profile-user-profile--default"]
    known["retired-component--gone"] = "ffffffffffffffff"
    answer = requests.post(server.url + "/api/projections?format=text", json={"known": known}, timeout=10)
    assert answer.status_code == 200
    body = answer.json()
    assert [story["id"] for story in body["stories"]] == [FILLED, "profile-user-profile--default"]
    filled = next(story for story in everything if story["id"] == FILLED)
    assert body["stories"][0] == filled
    assert body["removed"] == ["retired-component--gone"] and body["unchanged"] == len(everything) - 2
    bad = requests.post(server.url + "/api/projections", json={"known": {FILLED: 1}}, timeout=10)
    assert bad.status_code == 400 and bad.json()["error"]["path"] == f"/known/{FILLED}"


def test_saved_variants_committed_with_the_code_are_checked_exported_and_listed(tmp_path):
    """`serve` saves variants from the browser into Variants/ (docs/persistence.md: meant to be
    committed); `check`, `export`, `list` and `render` run from the same directory see them too, and
    one the Props type no longer decodes fails the check (before, all four ignored the directory)."""
    variants = tmp_path / "Variants"
    variants.mkdir()
    saved = {"component": "profile-user-profile", "title": "Profile/User Profile",
             "variants": {"Grace": {"avatarURL": None, "email": "grace@example.com", "name": "Grace Hopper"}}}
    (variants / "profile-user-profile.json").write_text(json.dumps(saved), encoding="utf-8")
    story = "profile-user-profile--grace"
    assert story in storybook("list", cwd=tmp_path).stdout
    assert 'heading2 "Grace Hopper"' in storybook("render", story, cwd=tmp_path).stdout
    recorded = storybook("check", "--snapshots", "goldens", "--record", cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert (tmp_path / "goldens" / f"{story}.txt").exists()
    assert storybook("check", "--snapshots", "goldens", cwd=tmp_path).returncode == 0
    exported = storybook("export", "--out", "export", cwd=tmp_path)
    assert exported.returncode == 0 and (tmp_path / "export" / f"{story}.txt").exists(), exported.stderr
    # Elsewhere, or with --variants-dir naming another directory, there are none.
    assert story not in storybook("list", "--variants-dir", str(tmp_path / "none")).stdout
    # A variant the Props type no longer decodes fails the check, with the reason.
    saved["variants"]["Broken"] = {"name": 42}
    (variants / "profile-user-profile.json").write_text(json.dumps(saved), encoding="utf-8")
    broken = storybook("check", "--snapshots", "goldens", cwd=tmp_path)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "saved variant 'Broken' of 'profile-user-profile' cannot be loaded" in broken.stdout, broken.stdout
    assert "expected a string, found a number at /name" in broken.stdout
    assert "1 saved variant in Variants cannot be loaded" in broken.stdout
    assert "cannot be loaded" in storybook("list", cwd=tmp_path).stderr  # the other commands say it on standard error
