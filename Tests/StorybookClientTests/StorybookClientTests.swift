import Foundation
import PropsCatalog
import Synchronization
import Testing
@testable import StorybookClient

@Suite struct StorybookClientTests {
    @Test func backoffDoublesUpToTheMaximum() {
        let delays = (1...8).map { Backoff.delay(after: $0, minimum: .milliseconds(100), maximum: .seconds(1)) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                           .seconds(1), .seconds(1), .seconds(1), .seconds(1)])
    }

    #if !canImport(Darwin)
    @Test func theLinuxClientRefusesTLSInsteadOfConnectingInClearText() throws {
        func reason(_ text: String) throws -> String? { LWSClientConnection.unsupportedScheme(of: try #require(URL(string: text))) }
        #expect(try reason("ws://127.0.0.1:6006/ws") == nil)
        #expect(try reason("http://127.0.0.1:6006/ws") == nil)
        #expect(try reason("wss://example.com/ws")?.contains("TLS (wss://) is not available in the Linux client") == true)
        #expect(try reason("ftp://example.com/ws") != nil)
    }

    @Test func connectingToAWssURLReportsWhyInsteadOfOpeningIt() throws {
        let events = Mutex<[String]>([])
        let connection = LWSClientConnection { event in
            events.withLock { list in
                switch event {
                case .opened: list.append("opened")
                case .message: list.append("message")
                case .closed(let reason): list.append("closed: \(reason)")
                }
            }
        }
        connection.connect(to: try #require(URL(string: "wss://example.com/ws")))  // never started: nothing may be dialled
        let seen = events.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.hasPrefix("closed: wss://example.com/ws: TLS (wss://) is not available") == true)
        connection.stop()
    }
    #endif

    @Test func storiesBelongToTheLongestMatchingComponent() {
        let components = ["media-movie", "media-movie-list", "auth-login"]
        #expect(StorybookClient.componentID(ofStory: "media-movie-list--default", among: components) == "media-movie-list")
        #expect(StorybookClient.componentID(ofStory: "auth-login--filled", among: components) == "auth-login")
        #expect(StorybookClient.componentID(ofStory: "profile-user-profile--default", among: components) == nil)
    }
}

/// A report never passes the server's message limit: over it, the image (then the text) is left out and
/// the error says why, instead of the server closing the connection with 1009 again and again.
@Suite struct RenderReportTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 2_992))

    private func sent(_ report: RenderReport, within limit: Int?) throws -> (bytes: Int, message: JSONValue) {
        let bytes = report.encoded(within: limit)
        return (bytes.count, try JSONParser.parse(bytes))
    }

    @Test func aReportWithinTheLimitOrToAServerThatDidNotSayGoesAsItIs() throws {
        let report = RenderReport(story: "auth-login--filled", version: 3, image: Self.png, text: "vstack")
        #expect(report.encoded(within: nil) == report.message.serializedBytes())
        #expect(report.encoded(within: 1 << 20) == report.message.serializedBytes())
        #expect(try sent(report, within: 1 << 20).message["image"] == .string(Self.png.base64EncodedString()))
    }

    @Test func anImageOverTheLimitIsLeftOutAndTheErrorSaysWhyAndHowToRaiseIt() throws {
        let report = RenderReport(story: "auth-login--filled", version: 3, image: Self.png, text: "vstack")
        #expect(report.message.serializedBytes().count > 2_048)
        let (count, message) = try sent(report, within: 2_048)
        #expect(count <= 2_048)
        #expect(message["image"] == nil)
        #expect(message["text"] == "vstack" && message["story"] == "auth-login--filled" && message["version"] == 3)
        let error = try #require(message["error"]?.stringValue)
        #expect(error.contains("the image of 3000 bytes") && error.contains("limit of 2048 bytes"))
        #expect(error.contains("--max-message-bytes"))

        var failed = report
        failed.error = "the simulator crashed"
        #expect(try sent(failed, within: 2_048).message["error"]?.stringValue?.hasPrefix("the simulator crashed; the image of 3000 bytes") == true)
    }

    @Test func whatStaysOverTheLimitIsLeftOutTooUntilTheReportFits() throws {
        let long = String(repeating: "x", count: 5_000)
        let report = RenderReport(story: "auth-login--filled", version: 3, image: Self.png, text: long, error: long)
        let (count, message) = try sent(report, within: 1_024)
        #expect(count <= 1_024)
        #expect(message["image"] == nil && message["text"] == nil)
        let error = try #require(message["error"]?.stringValue)
        #expect(error.contains("the image of 3000 bytes") && error.contains("the text of 5000 bytes") && error.contains("the error of 5000 bytes"))
        #expect(!error.contains("xxx"))
    }
}
