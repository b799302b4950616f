import DemoCatalog
import Dispatch
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
@testable import StorybookTransport
import Testing

/// The threading rule: story state lives on the app queue, checked at the hub's entry points, and
/// the review page's long check runs off it.
@Suite struct AppQueueTests {
    private static func hub(on queue: AppQueue?) throws -> StoryHub {
        let hub = StoryHub(catalog: try DemoCatalog.make(), sink: RecordingSink(), logger: Logger(label: "test"))
        hub.owner = queue
        return hub
    }

    @Test func theHubWorksOnItsQueue() throws {
        let queue = AppQueue()
        let hub = try Self.hub(on: queue)
        let version = queue.sync { (try? hub.apply(.reset, to: "profile-user-profile--default", source: .http).get())?.version }
        #expect(version == 2)
    }

    /// A queue check that fails traps: the process dies of a signal (SIGILL on x86_64, SIGTRAP on
    /// arm64). A failing set-up exits with status 1 instead, so it cannot pass for a trap.
    private static func trapped(_ result: ExitTest.Result?) -> Bool {
        if case .signal? = result?.exitStatus { return true }
        return false
    }

    @Test func theHubTrapsWhenCalledOffItsQueue() async {
        let result = await #expect(processExitsWith: .failure) {
            let queue = AppQueue()
            let hub = try AppQueueTests.hub(on: queue)
            guard queue.sync({ (try? hub.apply(.reset, to: "profile-user-profile--default", source: .http).get()) != nil }) else { exit(1) }
            _ = hub.subscribers(of: "profile-user-profile--default")
        }
        #expect(Self.trapped(result))
    }

    @Test func thePresenceBoardAndTheRendererRegistryTrapOffTheQueue() async {
        // Calls that touch only their own type's state, so the check that traps is that type's own.
        let board = await #expect(processExitsWith: .failure) {
            let queue = AppQueue()
            let board = PresenceBoard(hub: try AppQueueTests.hub(on: queue)) { _, work in work() }
            guard queue.sync({ board.author(of: ConnectionID(raw: 1)) == nil }) else { exit(1) }
            _ = board.author(of: ConnectionID(raw: 1))
        }
        #expect(Self.trapped(board))
        let registry = await #expect(processExitsWith: .failure) {
            let queue = AppQueue()
            let registry = RendererRegistry(hub: try AppQueueTests.hub(on: queue), logger: Logger(label: "test"))
            guard queue.sync({ registry.renderer(named: "none") == nil }) else { exit(1) }
            _ = registry.renderer(named: "none")
        }
        #expect(Self.trapped(registry))
    }

    @Test func onlyTheReviewListIsReadOnlyWorkAndItKeepsTheAccessRules() throws {
        let catalog = try DemoCatalog.make()
        let hub = try Self.hub(on: nil)
        func router(token: String?) -> HTTPRouter {
            var router = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: RenderCache(catalog: catalog),
                                    staticFiles: nil, access: AccessPolicy(token: token, allowedOrigins: []), maxJSONDepth: 64)
            router.review = ReviewSettings(snapshotsDirectory: FileManager.default.temporaryDirectory.path + "/no-goldens-\(getpid())", allowRecord: false)
            return router
        }
        let review = HTTPRequest(method: .get, path: "/api/review", queryItems: [], headers: [:], body: [])
        let work = try #require(router(token: nil).readOnlyWork(for: review))
        #expect(work().status == router(token: nil).route(review).status)
        #expect(router(token: "secret").readOnlyWork(for: review) == nil)  // route() answers the 401
        #expect(router(token: nil).readOnlyWork(for: HTTPRequest(method: .post, path: "/api/review/x/accept", queryItems: [], headers: [:], body: [])) == nil)
        #expect(router(token: nil).readOnlyWork(for: HTTPRequest(method: .get, path: "/api/index.json", queryItems: [], headers: [:], body: [])) == nil)
    }
}
