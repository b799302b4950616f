import DemoCatalog
@testable import PropsCatalog
import Testing

@Suite struct ProjectionTests {
    static let catalog = try! DemoCatalog.make()

    @Test(arguments: catalog.stories.map(\.id))
    func textProjectionMatchesGolden(storyID: String) throws {
        let story = try #require(Self.catalog.story(id: storyID))
        let view = try story.registeredView().get()
        GoldenFiles.check(TextProjection.render(view), named: "\(storyID).txt")
    }

    @Test(arguments: catalog.stories.map(\.id))
    func htmlDocumentMatchesGolden(storyID: String) throws {
        let story = try #require(Self.catalog.story(id: storyID))
        let view = try story.registeredView().get()
        GoldenFiles.check(HTMLProjection.document(view, title: "\(story.component.title) / \(story.name)"), named: "\(storyID).html")
    }

    @Test func contractFixtureShowsNameAndEmailInBothProjections() throws {
        let view = try #require(Self.catalog.story(id: "profile-user-profile--default")).registeredView().get()
        let projections = Projections(view)
        for projection in [projections.text, projections.html] {
            #expect(projection.contains("Ada Lovelace"))
            #expect(projection.contains("ada@example.com"))
        }
    }

    @Test func hostileStringsAreEscapedInHTML() {
        let hostile = #"<script>alert("x")</script>' onload='x' & "#
        let view: [ViewNode] = [
            .text(hostile), .heading(hostile, level: 1), .button(label: hostile, command: Command(hostile)),
            .textField(label: hostile, value: hostile, isSecure: false, command: Command(hostile)),
            .image(url: "javascript:alert(1)", alt: hostile), .image(url: "https://x/\"><script>", alt: ""),
            .badge(hostile, tone: .danger), .section(title: hostile, []), .component(title: hostile, []),
        ]
        let html = HTMLProjection.document(view, title: hostile)
        #expect(!html.contains("<script"))
        #expect(!html.contains("' onload"))
        #expect(!html.contains("javascript:"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onload=&#39;x&#39; &amp;"))
        #expect(html.contains(#"data-command="&quot;\u003cscript&gt;alert(\&quot;x\&quot;)\u003c/script&gt;&#39; onload=&#39;x&#39; &amp; &quot;""#))
    }

    @Test(arguments: [
        ("https://x/a.png", true), ("HTTPS://X/A.PNG", true), ("Http://x", true), ("data:image/png;base64,AA", true),
        ("DATA:IMAGE/PNG;base64,AA", true), ("javascript:alert(1)", false), ("data:text/html,x", false),
        ("http:/x", false), ("http", false), ("", false), ("ｈttps://x", false), (" https://x", false),
    ])
    func imagesShowOnlyWebAndImageDataURLs(url: String, shown: Bool) {
        let html = HTMLProjection.fragment([.image(url: url, alt: "A")])
        #expect(html.contains(" src=") == shown, "\(url)")
    }

    @Test func textProjectionKeepsOneNodePerLine() {
        let text = TextProjection.render([.text("line one\nline two\t\"quoted\" \\ end"), .button(label: "Go", command: "go\nnow")])
        #expect(text == "text \"line one\\nline two\\t\\\"quoted\\\" \\\\ end\"\nbutton \"Go\" -> go\\nnow\n")
    }

    @Test func textProjectionOfEveryRole() {
        let view: [ViewNode] = [
            .stack(.horizontal, [.toggle(label: "On", isOn: true, command: nil), .badge("New", tone: .info)]),
            .list([.listItem(isSelected: true, command: "pick", [.text("A")])]),
            .progress(label: "Upload", fraction: 0.425), .progress(label: "Wait", fraction: nil),
            .textField(label: "Password", value: "abc", isSecure: true, command: nil), .divider,
        ]
        #expect(TextProjection.render(view) == """
            hstack
              toggle "On" on
              badge "New" (info)
            list (1 item)
              item (selected) -> pick
                text "A"
            progress "Upload" 43%
            spinner "Wait"
            securefield "Password" = "•••"
            divider

            """)
    }

    @Test func forEachTakesSwiftUIsIDKeyPathAndRendersLikeForEach() {
        struct Row: Hashable { var id: Int; var name: String }
        let rows = [Row(id: 2, name: "b"), Row(id: 1, name: "a")]
        let withID = List { ForEach(rows, id: \.id) { Text($0.name) } }.viewNodes
        let plain = List { ForEach(rows) { Text($0.name) } }.viewNodes
        #expect(withID == plain)
        #expect(TextProjection.render(List { ForEach(["x", "y"], id: \.self) { Text($0) } }.viewNodes) == """
            list (2 items)
              item
                text "x"
              item
                text "y"

            """)
    }

    @Test func viewBuilderComposesConditionalsLoopsAndEmbeddedComponents() {
        let child = Component<[String]>("Child/List") { names in
            List { ForEach(names) { Text($0) } }
        }
        let flag = true
        let nodes = VStack {
            if flag { Text("yes") } else { Text("no") }
            for index in 0..<2 { Badge("\(index)") }
            Embed(child, ["a", "b"])
        }.viewNodes
        #expect(TextProjection.render(nodes) == """
            vstack
              text "yes"
              badge "0"
              badge "1"
              component "Child/List"
                list (2 items)
                  item
                    text "a"
                  item
                    text "b"

            """)
    }
}
