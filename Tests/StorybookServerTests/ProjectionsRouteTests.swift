import DemoCatalog
import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookReview
@testable import StorybookTransport

/// `/api/projections`: every projection with its hash, the ETag flow and "what changed since".
@Suite struct ProjectionsRouteTests {
    let catalog: Catalog
    let renders: RenderCache
    let route: ProjectionsRoute

    init() throws {
        catalog = try DemoCatalog.make()
        renders = RenderCache(catalog: catalog)
        route = ProjectionsRoute(renders: renders, maxJSONDepth: 64)
    }

    private func call(_ method: HTTPMethod, _ query: [QueryItem] = [], body: String = "", headers: [String: String] = [:]) -> (HTTPResponse, JSONValue?) {
        let response = route.respond(to: HTTPRequest(method: method, path: "/api/projections", queryItems: query, headers: headers, body: Array(body.utf8)))
        return (response, try? JSONParser.parse(response.body))
    }

    private func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test(arguments: ProjectionFormat.allCases)
    func everyStoryInCatalogOrderWithTheRenderETagAsHash(format: ProjectionFormat) throws {
        let (response, json) = call(.get, [QueryItem(name: "format", value: format.rawValue)])
        #expect(response.status == 200)
        #expect(json?["v"] == 1 && json?["format"]?.stringValue == format.rawValue)
        let stories = try #require(json?["stories"]?.arrayValue)
        #expect(stories.compactMap { $0["id"]?.stringValue } == catalog.stories.map(\.id))
        for story in stories {
            let id = try #require(story["id"]?.stringValue)
            // What /render/{id}.txt|.html serves, with its ETag.
            let entry = try #require(renders.entry(id))
            #expect(story["body"]?.stringValue.map { Array($0.utf8) } == entry.body(format))
            #expect(story["hash"]?.stringValue.map { "\"\($0)\"" } == entry.etag(format))
        }
        let etag = try #require(header(response, "ETag"))
        #expect(etag.hasPrefix("\"") && etag == ContentHash.etag(response.body))
        let again = call(.get, [QueryItem(name: "format", value: format.rawValue)], headers: ["if-none-match": etag]).0
        #expect(again.status == 304 && again.body.isEmpty)
    }

    @Test func formatDefaultsToTextAndOthersAreRefused() {
        #expect(call(.get).1?["format"] == "text")
        let (response, json) = call(.get, [QueryItem(name: "format", value: "pdf")])
        #expect(response.status == 400 && json?["error"]?["code"] == "bad-message")
        let (put, _) = call(.put)
        #expect(put.status == 405 && header(put, "Allow") == "GET, HEAD, POST")
    }

    @Test func postAnswersOnlyWhatChangedSinceTheKnownHashes() throws {
        let all = try #require(call(.get).1?["stories"]?.arrayValue)
        var known: [String: JSONValue] = [:]
        for story in all { known[story["id"]!.stringValue!] = story["hash"]! }
        known["auth-login--filled"] = "0000000000000000"
        known.removeValue(forKey: "profile-user-profile--default")
        known["gone--story"] = "1234"
        known["another--gone"] = "5678"
        let (response, json) = call(.post, body: JSONValue.object(["known": .object(known)]).serialized())
        #expect(response.status == 200)
        let stories = try #require(json?["stories"]?.arrayValue)
        #expect(stories.compactMap { $0["id"]?.stringValue } == ["auth-login--filled", "profile-user-profile--default"])
        #expect(stories.first?["hash"]?.stringValue == renders.entry("auth-login--filled")?.textHash)
        #expect(json?["removed"] == ["another--gone", "gone--story"])
        #expect(json?["unchanged"]?.integerValue == Int64(all.count - 2))
        #expect(json?["format"] == "text" && json?["v"] == 1)
    }

    @Test(arguments: [
        ("{nope", "bad-json", nil as String?),
        ("[]", "bad-message", "/known"),
        (#"{"known": {"a--b": 5}}"#, "bad-message", "/known/a--b"),
    ])
    func postErrors(body: String, code: String, path: String?) {
        let (response, json) = call(.post, body: body)
        #expect(response.status == 400)
        #expect(json?["error"]?["code"]?.stringValue == code)
        #expect(json?["error"]?["path"]?.stringValue == path)
    }
}
