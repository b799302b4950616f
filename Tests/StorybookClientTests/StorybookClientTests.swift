import Foundation
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
    #endif

    @Test func storiesBelongToTheLongestMatchingComponent() {
        let components = ["media-movie", "media-movie-list", "auth-login"]
        #expect(StorybookClient.componentID(ofStory: "media-movie-list--default", among: components) == "media-movie-list")
        #expect(StorybookClient.componentID(ofStory: "auth-login--filled", among: components) == "auth-login")
        #expect(StorybookClient.componentID(ofStory: "profile-user-profile--default", among: components) == nil)
    }
}
