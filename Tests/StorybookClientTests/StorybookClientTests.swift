import Testing
@testable import StorybookClient

@Suite struct StorybookClientTests {
    @Test func backoffDoublesUpToTheMaximum() {
        let delays = (1...8).map { Backoff.delay(after: $0, minimum: .milliseconds(100), maximum: .seconds(1)) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                           .seconds(1), .seconds(1), .seconds(1), .seconds(1)])
    }

    @Test func storiesBelongToTheLongestMatchingComponent() {
        let components = ["media-movie", "media-movie-list", "auth-login"]
        #expect(StorybookClient.componentID(ofStory: "media-movie-list--default", among: components) == "media-movie-list")
        #expect(StorybookClient.componentID(ofStory: "auth-login--filled", among: components) == "auth-login")
        #expect(StorybookClient.componentID(ofStory: "profile-user-profile--default", among: components) == nil)
    }
}
