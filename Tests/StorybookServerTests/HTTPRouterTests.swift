import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// The HTTP routes of the contract, answered without a socket.
@Suite struct HTTPRouterTests {
    let sink = RecordingSink()
    let hub: StoryHub
    let router: HTTPRouter

    init() throws {
        let catalog = try DemoCatalog.make()
        hub = StoryHub(catalog: catalog, sink: sink, logger: Logger(label: "test"))
        router = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: RenderCache(catalog: catalog), staticFiles: nil,
                            access: AccessPolicy(token: nil, allowedOrigins: []), maxJSONDepth: 64)
    }

    private func call(_ method: HTTPMethod, _ path: String, body: String = "", headers: [String: String] = [:], query: [QueryItem] = []) -> (Int, JSONValue?, HTTPResponse) {
        var headers = headers
        if !body.isEmpty, headers["content-type"] == nil { headers["content-type"] = "application/json" }
        let response = router.route(HTTPRequest(method: method, path: path, queryItems: query, headers: headers, body: Array(body.utf8)))
        return (response.status, try? JSONParser.parse(response.body), response)
    }

    private func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test func indexListsEveryComponent() {
        let (status, json, response) = call(.get, "/api/index.json")
        #expect(status == 200)
        #expect(header(response, "Content-Type") == "application/json; charset=utf-8")
        #expect(json?["v"] == 1)
        #expect(json?["components"]?.arrayValue?.first?["id"] == "auth-login")
    }

    @Test func storyStateHasTheContractFields() {
        let (status, json, _) = call(.get, "/api/stories/profile-user-profile--default")
        #expect(status == 200)
        #expect(json?["id"] == "profile-user-profile--default")
        #expect(json?["component"] == "profile-user-profile")
        #expect(json?["name"] == "Default")
        #expect(json?["version"] == 1)
        #expect(json?["props"]?["email"] == "ada@example.com")
        #expect(json?["text"]?.stringValue?.contains("Ada Lovelace") == true)
        #expect(json?["html"]?.stringValue?.contains("ada@example.com") == true)
    }

    @Test func putPatchAndResetChangeTheLiveStateAndBroadcast() throws {
        let subscriber = ConnectionID(raw: 1)
        _ = hub.subscribe(subscriber, to: "profile-user-profile--default")
        let (putStatus, put, _) = call(.put, "/api/stories/profile-user-profile--default/props",
                                       body: #"{"name": "Grace", "email": "g@x", "avatarURL": null}"#)
        #expect(putStatus == 200)
        #expect(put?["version"] == 2)
        let (patchStatus, patched, _) = call(.patch, "/api/stories/profile-user-profile--default/props",
                                             body: #"[{"op": "replace", "path": "/name", "value": "Hopper"}]"#)
        #expect(patchStatus == 200)
        #expect(patched?["version"] == 3)
        #expect(patched?["props"]?["name"] == "Hopper")
        let (resetStatus, reset, _) = call(.post, "/api/stories/profile-user-profile--default/reset")
        #expect(resetStatus == 200)
        #expect(reset?["version"] == 4)
        #expect(reset?["props"]?["name"] == "Ada Lovelace")
        #expect(sink.received(by: subscriber).compactMap { $0["version"]?.integerValue } == [2, 3, 4])
        #expect(sink.received(by: subscriber).allSatisfy { $0["cause"]?["source"] == "http" })
    }

    @Test(arguments: [
        (HTTPMethod.put, "/api/stories/profile-user-profile--default/props", "{not json", 400, "bad-json", nil as String?),
        (.put, "/api/stories/profile-user-profile--default/props", #"{"name": 1, "email": "e"}"#, 422, "invalid-props", "/name"),
        (.put, "/api/stories/nope--nope/props", "{}", 404, "not-found", nil),
        (.patch, "/api/stories/profile-user-profile--default/props", #"[{"op": "test", "path": "/name", "value": "X"}]"#, 409, "test-failed", "/name"),
        (.patch, "/api/stories/profile-user-profile--default/props", #"[{"op": "remove", "path": "/missing"}]"#, 422, "invalid-patch", "/missing"),
        (.patch, "/api/stories/profile-user-profile--default/props", #"{"op": "remove"}"#, 422, "invalid-patch", nil),
        (.post, "/api/stories/profile-user-profile--default/undo", "", 409, "conflict", nil),
        (.post, "/api/stories/profile-user-profile--default/seek", #"{"version": 99}"#, 404, "not-found", nil),
        (.post, "/api/stories/profile-user-profile--default/seek", #"{}"#, 400, "bad-message", "/version"),
        (.delete, "/api/stories/profile-user-profile--default/props", "", 405, "method-not-allowed", nil),
        (.get, "/api/nothing", "", 404, "not-found", nil),
        (.get, "/render/nope.txt", "", 404, "not-found", nil),
        (.get, "/render/profile-user-profile--default.pdf", "", 404, "not-found", nil),
        (.post, "/render/profile-user-profile.txt", #"{"name": "A"}"#, 422, "invalid-props", "/email"),
    ])
    func errorsFollowTheContract(method: HTTPMethod, path: String, body: String, status: Int, code: String, pointer: String?) {
        let before = hub.session("profile-user-profile--default")
        let (actual, json, response) = call(method, path, body: body)
        #expect(actual == status)
        #expect(json?["error"]?["code"] == .string(code))
        #expect(json?["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(json?["error"]?["path"] == pointer.map(JSONValue.string))
        #expect(header(response, "Content-Type") == "application/json; charset=utf-8")
        #expect(try! hub.session("profile-user-profile--default").get().version == (try! before.get()).version)
    }

    @Test func renderServesTheRegisteredVariantWithStrongETags() throws {
        let (status, _, response) = call(.get, "/render/profile-user-profile--default.txt")
        #expect(status == 200)
        #expect(header(response, "Content-Type") == "text/plain; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == "vstack\n  image \"Avatar of Ada Lovelace\" <https://example.com/ada.png>\n  heading2 \"Ada Lovelace\"\n  text \"ada@example.com\"\n")
        let etag = try #require(header(response, "ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let (notModified, _, cached) = call(.get, "/render/profile-user-profile--default.txt", headers: ["if-none-match": etag])
        #expect(notModified == 304)
        #expect(cached.body.isEmpty)
        let (htmlStatus, _, html) = call(.get, "/render/profile-user-profile--default.html")
        #expect(htmlStatus == 200)
        #expect(String(decoding: html.body, as: UTF8.self).hasPrefix("<!doctype html>"))
    }

    @Test func renderOfLiveStateFollowsEdits() {
        _ = call(.patch, "/api/stories/profile-user-profile--default/props", body: #"[{"op": "replace", "path": "/name", "value": "Live"}]"#)
        let registered = call(.get, "/render/profile-user-profile--default.txt").2
        let live = call(.get, "/render/profile-user-profile--default.txt", query: [QueryItem(name: "live", value: "1")]).2
        #expect(!String(decoding: registered.body, as: UTF8.self).contains("Live"))
        #expect(String(decoding: live.body, as: UTF8.self).contains("heading2 \"Live\""))
    }

    @Test func postRenderChangesNoState() {
        let (status, _, response) = call(.post, "/render/profile-user-profile.html", body: #"{"name": "<b>x</b>", "email": "e", "avatarURL": null}"#)
        #expect(status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("&lt;b&gt;x&lt;/b&gt;"))
        #expect(try! hub.session("profile-user-profile--default").get().version == 1)
    }

    @Test func schemaOfAComponent() {
        let (status, json, _) = call(.get, "/api/components/profile-user-profile/schema")
        #expect(status == 200)
        #expect(json?["type"] == "object")
        #expect(json?["fields"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["name", "email", "avatarURL"])
    }

    @Test func overviewOfAComponentListsItsGeneratedStories() {
        let (status, json, response) = call(.get, "/api/components/maps-location-picker/overview")
        #expect(status == 200)
        #expect(header(response, "ETag") != nil)
        #expect(json?["title"] == "Maps/Location Picker")
        #expect(json?["description"]?.stringValue?.isEmpty == false)
        #expect(json?["props"]?.arrayValue?.map { $0["path"] } == ["/query", "/status", "/locations", "/indicatorColor"])
        let stories = json?["stories"]?.arrayValue ?? []
        #expect(stories.count == 13)
        let failed = stories.first { $0["id"] == "maps-location-picker--status-failed-locations-empty" }
        #expect(failed?["generated"] == true)
        #expect(failed?["settings"] == ["status": "failed", "locations": "empty"])
        #expect(failed?["props"]?["locations"] == [])
        #expect(call(.get, "/api/components/nope/overview").0 == 404)
        #expect(call(.post, "/api/components/maps-location-picker/overview").0 == 405)
        let etag = header(response, "ETag") ?? ""
        #expect(call(.get, "/api/components/maps-location-picker/overview", headers: ["if-none-match": etag]).0 == 304)
    }

    @Test func generatedStoriesAreOrdinaryStories() {
        let id = "auth-login--status-invalid-username-value-empty"
        #expect(call(.get, "/render/\(id).txt").0 == 200)
        let (status, json, _) = call(.patch, "/api/stories/\(id)/props", body: #"[{"op": "replace", "path": "/input/_0/password/value", "value": "pw"}]"#)
        #expect(status == 200)
        #expect(json?["version"] == 2)
        #expect(call(.get, "/api/stories/\(id)/history").1?["entries"]?.arrayValue?.count == 2)
        #expect(call(.post, "/api/stories/\(id)/reset").1?["props"]?["input"]?["_0"]?["password"]?["value"] == "correct horse")
    }

    @Test func historyUndoRedoAndSeekOverHTTP() {
        _ = call(.patch, "/api/stories/profile-user-profile--default/props", body: #"[{"op": "replace", "path": "/name", "value": "B"}]"#)
        #expect(call(.post, "/api/stories/profile-user-profile--default/undo").1?["props"]?["name"] == "Ada Lovelace")
        #expect(call(.post, "/api/stories/profile-user-profile--default/redo").1?["props"]?["name"] == "B")
        let sought = call(.post, "/api/stories/profile-user-profile--default/seek", body: #"{"version": 1}"#).1
        #expect(sought?["version"] == 5)
        #expect(sought?["props"]?["name"] == "Ada Lovelace")
        let history = call(.get, "/api/stories/profile-user-profile--default/history").1
        #expect(history?["entries"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["registered", "patch", "undo", "redo", "seek"])
        #expect(history?["entries"]?.arrayValue?.allSatisfy { $0["at"]?.stringValue != nil } == true)
        let since = call(.get, "/api/stories/profile-user-profile--default/history", query: [QueryItem(name: "since", value: "3")]).1
        #expect(since?["entries"]?.arrayValue?.compactMap { $0["version"]?.integerValue } == [4, 5])
    }

    @Test func anEditWithABaseIsMadeOnlyWhileThatIsTheLiveVersion() {
        let id = "profile-user-profile--default"
        func base(_ value: String) -> [QueryItem] { [QueryItem(name: "base", value: value)] }
        let patched = call(.patch, "/api/stories/\(id)/props", body: #"[{"op": "replace", "path": "/name", "value": "B"}]"#, query: base("1"))
        #expect(patched.0 == 200)
        #expect(patched.1?["version"] == 2)
        for (method, action, body) in [(HTTPMethod.put, "props", #"{"name": "C", "email": "c@x"}"#),
                                       (.patch, "props", #"[{"op": "replace", "path": "/name", "value": "C"}]"#),
                                       (.post, "reset", ""), (.post, "undo", ""), (.post, "redo", ""), (.post, "seek", #"{"version": 2}"#)] {
            let (status, json, _) = call(method, "/api/stories/\(id)/\(action)", body: body, query: base("1"))
            #expect(status == 409, "\(method) \(action)")
            #expect(json?["error"]?["code"] == "conflict")
        }
        for value in ["-1", "x", "2.0", "", "99999999999999999999999"] {
            let (status, json, _) = call(.post, "/api/stories/\(id)/undo", query: base(value))
            #expect(status == 400, "base=\(value)")
            #expect(json?["error"]?["code"] == "bad-request")
        }
        #expect(call(.post, "/api/stories/\(id)/undo", query: base("99999999999999999999999")).1?["error"]?["message"]
                == "base 99999999999999999999999 is too large for a version number")
        #expect(try! hub.session(id).get().version == 2)
        let undone = call(.post, "/api/stories/\(id)/undo", query: base("2"))
        #expect(undone.0 == 200)
        #expect(undone.1?["props"]?["name"] == "Ada Lovelace")
        #expect(call(.post, "/api/stories/\(id)/redo", query: base("3")).1?["props"]?["name"] == "B")
        #expect(call(.put, "/api/stories/\(id)/props", body: #"{"name": "D", "email": "d@x"}"#, query: base("4")).1?["version"] == 5)
        #expect(call(.post, "/api/stories/\(id)/reset", query: base("5")).1?["props"]?["name"] == "Ada Lovelace")
        #expect(call(.post, "/api/stories/\(id)/seek", body: #"{"version": 2}"#, query: base("6")).1?["props"]?["name"] == "B")
    }

    @Test func tokenGuardsTheAPIButNotHealth() {
        let guarded = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: RenderCache(catalog: hub.catalog), staticFiles: nil,
                                 access: AccessPolicy(token: "s3cret", allowedOrigins: []), maxJSONDepth: 64)
        func status(_ path: String, _ headers: [String: String] = [:], _ query: [QueryItem] = []) -> Int {
            guarded.route(HTTPRequest(method: .get, path: path, queryItems: query, headers: headers)).status
        }
        #expect(status("/api/index.json") == 401)
        #expect(status("/render/profile-user-profile--default.txt") == 401)
        #expect(status("/api/index.json", ["authorization": "Bearer s3cret"]) == 200)
        #expect(status("/api/index.json", ["authorization": "Bearer wrong"]) == 401)
        #expect(status("/api/index.json", [:], [QueryItem(name: "token", value: "s3cret")]) == 200)
        #expect(status("/api/index.json", ["cookie": "a=b; storybook-token=s3cret"]) == 200)
        #expect(status("/healthz") == 200)
    }

    @Test func deepJSONIsRefusedAsBadJSON() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let (status, json, _) = call(.put, "/api/stories/profile-user-profile--default/props", body: deep)
        #expect(status == 400)
        #expect(json?["error"]?["code"] == "bad-json")
    }
}
