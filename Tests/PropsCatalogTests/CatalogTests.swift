import DemoCatalog
@testable import PropsCatalog
import Testing

private struct Note: Codable, Sendable, Equatable {
    var text: String
}

private func note(_ title: String, _ variants: String...) -> Component<Note> {
    variants.reduce(Component<Note>(title) { Text($0.text) }) { $0.variant($1, Note(text: $1)) }
}

@Suite struct CatalogTests {
    @Test(arguments: [
        ("Auth/Login", "auth-login"),
        ("  Clocks // Split   View!! ", "clocks-split-view"),
        ("Über Café", "ber-caf"),
        ("A1/B2", "a1-b2"),
    ])
    func slugs(title: String, slug: String) {
        #expect(Slug.make(title) == slug)
    }

    @Test func storyIDsFollowTheContract() throws {
        let catalog = try Catalog { note("Auth/Login", "Filled", "Empty state") }
        #expect(catalog.stories.map(\.id) == ["auth-login--filled", "auth-login--empty-state"])
        #expect(catalog.component(id: "auth-login")?.title == "Auth/Login")
        #expect(catalog.story(id: "auth-login--filled")?.props == ["text": "Filled"])
    }

    @Test func duplicateComponentIDsAreRejectedNamingBoth() {
        #expect(throws: CatalogError.self) { try Catalog { note("Auth/Login", "A"); note("auth login", "B") } }
        do {
            _ = try Catalog { note("Auth/Login", "A"); note("auth login", "B") }
        } catch {
            #expect(error.description.contains("'Auth/Login'"))
            #expect(error.description.contains("'auth login'"))
        }
    }

    @Test func duplicateStoryIDsAreRejectedNamingBoth() {
        do {
            _ = try Catalog { note("Auth/Login", "Filled", "filled!") }
            Issue.record("a duplicate story id was accepted")
        } catch {
            #expect(error.description.contains("auth-login--filled"))
            #expect(error.description.contains("'Filled'"))
            #expect(error.description.contains("'filled!'"))
        }
    }

    @Test func aComponentKnowsWhereItWasDeclared() throws {
        let line = #line + 1
        let component = Component<Note>("Notes/Note") { note in
            Text(note.text)
        }
        .variant("A", Note(text: "a"))
        #expect(component.declaredAt == "PropsCatalogTests/CatalogTests.swift:\(line)")
        #expect(try AnyComponent(component).declaredAt == component.declaredAt)
        let labelled = Component<Note>("Notes/Other", render: { Text($0.text) })
        #expect(labelled.declaredAt == "PropsCatalogTests/CatalogTests.swift:\(#line - 1)")
    }

    @Test func componentsNeedVariantsAndSluggableNames() {
        #expect(throws: CatalogError.self) { try Catalog { note("Empty") } }
        #expect(throws: CatalogError.self) { try Catalog { note("!!!", "A") } }
        #expect(throws: CatalogError.self) { try Catalog { note("Notes", "???") } }
    }

    @Test func demoCatalogHasTheComponentsAndStoriesOfTheIssue() throws {
        let catalog = try DemoCatalog.make()
        let titles = catalog.components.map(\.title)
        for title in ["Auth/Login", "Maps/Location Picker", "Clocks/Split View", "Profile/User Profile", "Media/Movies"] {
            #expect(titles.contains(title))
        }
        #expect(catalog.stories.count >= 15)
        #expect(catalog.story(id: "profile-user-profile--default") != nil)
    }

    @Test func indexListsComponentsInRegistrationOrder() throws {
        let catalog = try Catalog { note("B/Second", "One"); note("A/First", "Two") }
        let index = catalog.index
        #expect(index["v"] == 1)
        let components = try #require(index["components"]?.arrayValue)
        #expect(components.map { $0["id"] } == ["b-second", "a-first"])
        #expect(components[0]["propsType"] == "Note")
        #expect(components[0]["stories"] == [["id": "b-second--one", "name": "One"]])
    }
}
