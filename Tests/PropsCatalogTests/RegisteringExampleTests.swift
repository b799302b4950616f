import PropsCatalog
import Testing

// The example of docs/registering.md, kept compiling and true.
private struct Greeting: Codable, Sendable, Equatable {
    var name: String
    var isMember: Bool
}

private let greeting = Component<Greeting>("Demo/Greeting") { props in
    Heading("Hello, \(props.name)")
    if props.isMember { Badge("Member", tone: .success) }
    Button("Say hi", command: "wave")
}
.variant("Guest", Greeting(name: "Ada", isMember: false))
.variant("Member", Greeting(name: "Grace", isMember: true))

private struct Counter: Codable, Sendable, Equatable {
    var count: Int
}

private let counter = Component<Counter>("Demo/Counter") { Button("+1 (\($0.count))", command: "increment") }
    .variant("Zero", Counter(count: 0))
    .suggesting { props, invocation in
        invocation.command.name == "increment" ? Counter(count: props.count + 1) : nil
    }

@Suite struct RegisteringExampleTests {
    @Test func theDocumentedExampleRegistersAndRenders() throws {
        let catalog = try Catalog { greeting; counter }
        #expect(catalog.stories.map(\.id) == ["demo-greeting--guest", "demo-greeting--member", "demo-counter--zero"])
        let member = try #require(catalog.story(id: "demo-greeting--member"))
        #expect(Projections(try member.registeredView().get()).text == """
            heading1 "Hello, Grace"
            badge "Member" (success)
            button "Say hi" -> wave

            """)
        var session = try StorySession(story: #require(catalog.story(id: "demo-counter--zero")))
        _ = session.apply(.dispatch(CommandInvocation("increment")), source: .http)
        #expect(session.props == ["count": 1])
    }
}
