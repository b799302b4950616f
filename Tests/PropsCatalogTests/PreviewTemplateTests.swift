import Foundation
@testable import PropsCatalog
import Testing

/// `PreviewTemplate`: the HTML of some props with one string field's text cut out, made only when
/// the projection shows that text as is, so a client can show a keystroke before the server's
/// state for it arrives. Each view below changes the text one way; none of them may get a template
/// that previews a value differently from how the view really renders it.
@Suite struct PreviewTemplateTests {
    struct Person: Codable, Sendable, Equatable {
        var name: String
        var age: Int
        var nickname: String?
    }

    /// One view of a `Person`, its props and one environment: the live projections `make` is given,
    /// and the real render of the props with another name, which a template must predict.
    struct Rendered {
        let component: AnyComponent
        let props: JSONValue
        let environment: ViewEnvironment
        let live: Projections

        init(name: String, in environment: ViewEnvironment = .standard, @ViewBuilder _ view: @escaping @Sendable (Person) -> [ViewNode]) throws {
            component = try AnyComponent(Component<Person>("Test/Person", render: view)
                .variant("Default", Person(name: name, age: 36, nickname: nil)))
            props = component.variants[0].props
            self.environment = environment
            live = Projections(try component.validate(props, in: environment).get().view)
        }

        /// The template of the field at `path`, checked against the live projections.
        func template(at path: String = "/name") throws -> PreviewTemplate? {
            PreviewTemplate.make(component, props: props, at: try JSONPointer(parsing: path), in: environment, live: live)
        }

        /// The HTML the view really gives for `name` (rendered without reusing anything).
        func html(withName name: String) throws -> String {
            let edited = props.replacing(at: try JSONPointer(parsing: "/name"), with: .string(name))
            return Projections(try component.validate(edited, in: environment).get().view).html
        }
    }

    /// The live name of most tests, and names with what needs escaping, letters outside ASCII, an
    /// emoji of several scalars (surrogate pairs in UTF-16), and nothing.
    static let ada = "Ada Lovelace"
    static let names = [ada, #"<b>"Tom" & 'Jerry'</b>"#, "Zoë Łódź Ærø", "👩🏽‍💻 Grace 🎩", "", "&amp;"]

    /// The UTF-16 code units of `html` at each of `offsets`, `length` long, as a browser counts.
    static func slices(of html: String, at offsets: [Int], length: Int) -> [[UInt16]] {
        let units = Array(html.utf16)
        return offsets.map { offset in
            guard offset >= 0, offset + length <= units.count else { return [] }
            return Array(units[offset..<offset + length])
        }
    }

    /// The UTF-16 code units of `text` escaped, what each slice must hold (compared unit for unit:
    /// Swift compares Strings by canonical equivalence).
    static func escaped(_ text: String) -> [UInt16] {
        Array(HTMLProjection.escape(text).utf16)
    }

    /// `html` cut at `offsets` around `length` units and joined with `text`: what a client does with a
    /// `preview-field` message (Public/js/optimistic-preview.js).
    static func splice(_ html: String, at offsets: [Int], length: Int, with text: String) -> [UInt8] {
        let units = Array(html.utf16)
        var result: [UInt16] = []
        var from = 0
        for offset in offsets {
            result += units[from..<offset] + Array(text.utf16)
            from = offset + length
        }
        result += units[from...]
        return Array(String(decoding: result, as: UTF16.self).utf8)
    }

    /// The name shows as is three times (an attribute, after an emoji, between words): the template
    /// filled with any name is byte for byte the real render of that name, and its offsets slice
    /// exactly the escaped name out of that render (UTF-16, each later offset shifted by the earlier
    /// names' lengths).
    @Test func aViewShowingTheTextAsIsGetsATemplateThatPredictsEveryValue() throws {
        let rendered = try Rendered(name: Self.ada) { person in
            VStack {
                Image(url: "https://example.com/p.png", alt: "Portrait of \(person.name)")
                Heading("🎩 \(person.name)", level: 2)
                Text("\(person.age) years")
                Text("Hello, \(person.name)! Née 1815.")
            }
        }
        let template = try #require(try rendered.template())
        #expect(template.parts.count == 4)
        #expect(template.filled(with: Self.ada) == rendered.live.html)
        for name in Self.names {
            let real = try rendered.html(withName: name)
            let filled = template.filled(with: name)
            #expect(Array(filled.utf8) == Array(real.utf8), "\(name)")
            let (offsets, length) = template.offsets(filledWith: name)
            #expect(length == Self.escaped(name).count, "\(name)")
            #expect(offsets.count == 3, "\(name)")
            #expect(offsets == offsets.sorted(), "\(name)")
            #expect(Self.slices(of: real, at: offsets, length: length) == Array(repeating: Self.escaped(name), count: 3), "\(name)")
            // cut at the offsets, the render of this name is a template for every other one
            for other in Self.names {
                let predicted = Self.splice(real, at: offsets, length: length, with: HTMLProjection.escape(other))
                #expect(predicted == Array(try rendered.html(withName: other).utf8), "\(name) -> \(other)")
            }
        }
    }

    /// Offsets count UTF-16 units from the start: an emoji (two units, four UTF-8 bytes, one
    /// character) before the field moves the field two units, whatever the text.
    @Test func offsetsCountUTF16UnitsNotBytesOrCharacters() throws {
        let rendered = try Rendered(name: "x") { person in Text("👩🏽‍💻\(person.name)") }
        let template = try #require(try rendered.template())
        let prefix = #"<p class="sb-text">👩🏽‍💻"#.utf16.count
        #expect(template.offsets(filledWith: "x") == ([prefix], 1))
        #expect(template.offsets(filledWith: "é<") == ([prefix], 5))
        #expect(template.offsets(filledWith: "🎩") == ([prefix], 2))
    }

    /// A view that uppercases gets no template, even when the live text is already in capitals (the
    /// render would agree for that one value): the marker holds lowercase letters.
    @Test(arguments: [ada, "ADA LOVELACE", "1815"])
    func aViewThatUppercasesGetsNoTemplate(live: String) throws {
        let rendered = try Rendered(name: live) { person in Heading(person.name.uppercased()) }
        #expect(try rendered.template() == nil)
    }

    /// `reproduces` is what lets the server keep a template across versions: it holds for the filled
    /// HTML exactly, and not for HTML with other text at a cut, another part, more after the end, or
    /// the same text in another Unicode form.
    @Test func aTemplateReproducesOnlyItsOwnHTMLFilledWithTheText() throws {
        let rendered = try Rendered(name: Self.ada) { person in
            Heading(person.name)
            Text("Hello, \(person.name)!")
        }
        let template = try #require(try rendered.template())
        let html = template.filled(with: "Zoé")
        #expect(template.reproduces(html, filledWith: "Zoé"))
        #expect(!template.reproduces(html, filledWith: "Zoè"))  // as long: only the text tells them apart
        #expect(!template.reproduces(html, filledWith: "Zoe"))
        #expect(!template.reproduces(html, filledWith: "Zoe\u{301}"))
        #expect(!template.reproduces(html + " ", filledWith: "Zoé"))
        #expect(!template.reproduces(String(html.dropLast()), filledWith: "Zoé"))
        #expect(!template.reproduces(html.replacing("Hello", with: "Howdy"), filledWith: "Zoé"))
        // Text that needs escaping, text that is empty, and HTML shorter than a part.
        #expect(template.reproduces(template.filled(with: "<Zoé & \"Ann\">"), filledWith: "<Zoé & \"Ann\">"))
        #expect(!template.reproduces(template.filled(with: "<Zoé>"), filledWith: "&lt;Zoé&gt;"))
        #expect(template.reproduces(template.filled(with: ""), filledWith: ""))
        #expect(!template.reproduces("", filledWith: ""))
        #expect(!template.reproduces(String(template.parts[0].dropLast()), filledWith: ""))
    }

    /// A view that truncates gets no template: the marker is cut (prefix 5 of a long value), or the
    /// live text is while the marker is not (prefix 20): the marker filled with the live text is not
    /// the live HTML.
    @Test(arguments: [5, 20])
    func aViewThatTruncatesALongValueGetsNoTemplate(limit: Int) throws {
        let live = "Augusta Ada King, Countess of Lovelace"
        let rendered = try Rendered(name: live) { person in Heading(String(person.name.prefix(limit))) }
        #expect(try rendered.template() == nil)
    }

    /// A view that shows the text's length gets no template, whatever the live text's length: the
    /// marker is longer than the live text, so the counts differ.
    @Test(arguments: [ada, "Ada Lovelac", "A"])
    func aViewThatShowsACountGetsNoTemplate(live: String) throws {
        let countOnly = try Rendered(name: live) { person in Text("\(person.name.count) characters") }
        #expect(try countOnly.template() == nil)
        // the name shows as is too: only the count tells the marker from the text
        let nameAndCount = try Rendered(name: live) { person in
            Heading(person.name)
            Text("\(person.name.count) characters")
        }
        #expect(try nameAndCount.template() == nil)
    }

    /// A placeholder for the empty string: with the live value empty, the view shows the placeholder
    /// where the marker shows, so there is no template.
    @Test func aViewWithAPlaceholderForTheEmptyStringGetsNoTemplateWhenTheValueIsEmpty() throws {
        let rendered = try Rendered(name: "") { person in Heading(person.name.isEmpty ? "No name" : person.name) }
        #expect(rendered.live.html.contains("No name"))
        #expect(try rendered.template() == nil)
    }

    /// A view that cuts the text at a length the live text is under still gets no template when the
    /// cut is shorter than the marker (at least `PreviewTemplate.markerLength`): the marker is cut.
    /// (Else a keystroke past the cut would show text the view never renders, then step back.)
    @Test(arguments: [6, 20, PreviewTemplate.markerLength - 1])
    func aViewThatCutsTextTheLiveTextIsUnderGetsNoTemplate(limit: Int) throws {
        let rendered = try Rendered(name: "short") { person in Heading(String(person.name.prefix(limit))) }
        #expect(try rendered.template() == nil)
    }

    /// The check's limit, as documented: a cut past the marker's length is not seen.
    @Test func aCutPastTheMarkersLengthIsNotSeen() throws {
        let limit = PreviewTemplate.markerLength + 20
        let rendered = try Rendered(name: "short") { person in Heading(String(person.name.prefix(limit))) }
        let template = try #require(try rendered.template())
        let long = String(repeating: "y", count: limit + 5)
        #expect(template.filled(with: long) != (try rendered.html(withName: long)))
    }

    /// A placeholder for the empty string, with a live value that is not empty: the view shows the
    /// placeholder where the template filled with nothing shows nothing, so there is no template.
    @Test func aViewWithAPlaceholderForTheEmptyStringGetsNoTemplateWhenTheValueIsNotEmpty() throws {
        let rendered = try Rendered(name: "Ada") { person in Heading("Nickname: " + (person.name.isEmpty ? "(none)" : person.name)) }
        #expect(try rendered.template() == nil)
    }

    /// A Props type that refuses the empty string leaves nothing to compare it with: the template
    /// stands (clearing the field will be refused by the server, and the page shows its error).
    @Test func aTypeThatRefusesTheEmptyStringStillGetsATemplate() throws {
        struct Named: Codable, Sendable, Equatable {
            var name: String
            init(name: String) { self.name = name }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                guard !name.isEmpty else {
                    throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "a name is not empty")
                }
            }
        }
        let component = try AnyComponent(Component<Named>("Test/Named") { named in Heading(named.name) }
            .variant("Default", Named(name: "Ada")))
        let props = component.variants[0].props
        #expect(throws: (any Error).self) { try component.validate(props.replacing(at: JSONPointer(tokens: ["name"]), with: .string("")), in: .standard).get() }
        let live = Projections(try component.validate(props, in: .standard).get().view)
        let template = try #require(PreviewTemplate.make(component, props: props, at: JSONPointer(tokens: ["name"]), in: .standard, live: live))
        #expect(template.filled(with: "Ada") == live.html)
    }

    /// Only a string gets a template: a number, a null (an optional string the view shows all the
    /// same), the root, and pointers to nothing get none.
    @Test(arguments: ["/age", "/nickname", "", "/nope", "/name/0", "/nickname/x"])
    func aFieldThatIsNotAStringGetsNoTemplate(path: String) throws {
        let rendered = try Rendered(name: Self.ada) { person in
            Heading(person.name)
            Text("\(person.age) years")
            Text(person.nickname ?? "no nickname")
        }
        #expect(try rendered.template(at: path) == nil)
        #expect(try rendered.template(at: "/name") != nil)  // the same view does show its name as is
    }

    /// A field the view does not show gets no template (rather than one with no place to fill in).
    @Test func aFieldTheViewDoesNotShowGetsNoTemplate() throws {
        let rendered = try Rendered(name: Self.ada) { person in Text("\(person.age) years") }
        #expect(try rendered.template() == nil)
    }

    /// The template is rendered in the environment it is asked for: a view that reads the layout
    /// direction gets the right-to-left template, which predicts the right-to-left render.
    @Test func theTemplateIsRenderedInItsEnvironment() throws {
        let view: @Sendable (Person) -> [ViewNode] = { person in
            [ViewEnvironment.current.layoutDirection == .rtl ? .text("← \(person.name)") : .text("\(person.name) →")]
        }
        let rtl = try Rendered(name: Self.ada, in: ViewEnvironment(layoutDirection: .rtl)) { view($0) }
        let template = try #require(try rtl.template())
        let real = try rtl.html(withName: "Grace <3")
        #expect(real.contains("← Grace &lt;3"))
        #expect(Array(template.filled(with: "Grace <3").utf8) == Array(real.utf8))
        #expect(Self.slices(of: real, at: template.offsets(filledWith: "Grace <3").offsets, length: 11) == [Self.escaped("Grace <3")])
    }

    /// A view that lowercases agrees with a live text already in lowercase: the marker's uppercase
    /// letters catch it (else it would preview "Ada" as "Ada" where the view shows "ada").
    @Test func aViewThatLowercasesGetsNoTemplateEvenWhenTheLiveTextIsLowercase() throws {
        let rendered = try Rendered(name: "ada lovelace") { person in Heading(person.name.lowercased()) }
        #expect(try rendered.template() == nil)
    }

    /// The check compares code units, not Strings (which Swift compares by canonical equivalence):
    /// a view that normalizes its text to NFC, with a live text in NFD, would otherwise pass it, and
    /// the offsets' length (the NFD text's) would not match what the live HTML holds there.
    @Test func aTemplateMatchesTheLiveHTMLCodeUnitForCodeUnit() throws {
        let live = "Zoe\u{301}"  // NFD: "e" and a combining acute accent
        let rendered = try Rendered(name: live) { person in Heading(person.name.precomposedStringWithCanonicalMapping) }
        #expect(rendered.live.html.contains("Zo\u{E9}"))
        #expect(try rendered.template() == nil)
    }

    /// A view that shows the text as a command, JSON in an attribute, agrees with a live text that
    /// has nothing JSON escapes: the marker's backslash catches it (else a typed quote or backslash
    /// would be previewed as HTML escapes it where the view writes `\"` or `\\`).
    @Test func aViewShowingTheTextAsJSONInAnAttributeGetsNoTemplate() throws {
        let rendered = try Rendered(name: "Ada") { person in Button("Go", command: Command(person.name)) }
        #expect(try rendered.template() == nil)
    }
}
