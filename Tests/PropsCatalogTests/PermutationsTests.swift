import DemoCatalog
@testable import PropsCatalog
import Testing

private enum Stage: String, Codable, Sendable, CaseIterable { case draft, review, failed }

private enum Fetch: Codable, Sendable, Equatable {
    case idle
    case loading(query: String)
    case failed(message: String)
}

private struct Panel: Codable, Sendable, Equatable {
    var title: String
    var isLoading: Bool
    var stage: Stage
    var note: String?
    var fetch: Fetch
}

private func panel(_ title: String = "Panel") -> Component<Panel> {
    Component<Panel>(title) { Text($0.title) }
        .variant("Default", Panel(title: "Hello", isLoading: false, stage: .draft, note: "n", fetch: .idle))
        .variant("Loading", Panel(title: "Hello", isLoading: true, stage: .draft, note: nil, fetch: .loading(query: "q")))
        .variant("Failed", Panel(title: "Hello", isLoading: false, stage: .failed, note: nil, fetch: .failed(message: "boom")))
}

/// Six flags and enums: all-pairs territory with a small limit.
private struct Six: Codable, Sendable, Equatable {
    var a: Bool
    var b: Bool
    var c: Stage
    var d: Stage
    var e: Bool?
    var f: Stage
}

/// Refuses one combination when decoding, as a hand-written invariant would.
private struct Picky: Codable, Sendable, Equatable {
    var isLoading: Bool
    var stage: Stage

    init(isLoading: Bool, stage: Stage) {
        self.isLoading = isLoading
        self.stage = stage
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isLoading = try container.decode(Bool.self, forKey: .isLoading)
        stage = try container.decode(Stage.self, forKey: .stage)
        if isLoading && stage == .failed {
            throw DecodingError.dataCorruptedError(forKey: .stage, in: container, debugDescription: "a failed panel cannot be loading")
        }
    }
}

private func generated(_ component: AnyComponent) -> [AnyComponent.Variant] {
    component.variants.filter(\.isGenerated)
}

@Suite struct PermutationsTests {
    @Test func everyInferredDimensionMakesTheFullProductUnderTheLimit() throws {
        let component = try AnyComponent(panel().permutations(from: "Default"))
        let stories = generated(component)
        // isLoading 2 x stage 3 x note 2 (nil, base) x fetch 3 (cases the variants show) = 36, minus the base itself.
        #expect(stories.count == 35)
        #expect(Set(stories.map(\.id)).count == 35)
        let first = try #require(stories.first)
        #expect(first.name == "isLoading=true")
        #expect(stories.contains { $0.name == "isLoading=true, stage=failed" })
        let loading = try #require(stories.first { $0.name == "isLoading=true, stage=failed" })
        #expect(loading.id == "panel--isloading-true-stage-failed")
        #expect(loading.settings?.json == ["isLoading": true, "stage": "failed"])
        #expect(loading.props["isLoading"] == true && loading.props["stage"] == "failed" && loading.props["title"] == "Hello")
        let noNote = try #require(stories.first { $0.name == "note=nil" })
        #expect(noNote.props["note"] == .null)
        #expect(noNote.settings?.json == ["note": .null])
    }

    @Test func unionCasesCarryThePayloadTheVariantsShow() throws {
        let component = try AnyComponent(panel().permutations(from: "Default", over: "/fetch"))
        let stories = generated(component)
        #expect(stories.map(\.name) == ["fetch=loading", "fetch=failed"])
        #expect(stories[0].props["fetch"] == ["loading": ["query": "q"]])
        #expect(stories[1].props["fetch"] == ["failed": ["message": "boom"]])
    }

    @Test func idsStayWhenADimensionIsAdded() throws {
        let before = generated(try AnyComponent(panel().permutations(from: "Default", over: "/isLoading", "/stage")))
        let after = generated(try AnyComponent(panel().permutations(from: "Default", over: "/isLoading", "/stage", "/note")))
        #expect(before.count == 5 && after.count == 11)
        for story in before {
            let same = try #require(after.first { $0.id == story.id }, "\(story.id) disappeared")
            #expect(same.props == story.props && same.name == story.name)
        }
    }

    @Test func handGivenValuesAreADimensionWithTheirLabels() throws {
        let component = try AnyComponent(panel()
            .permutations(from: "Default", over: "/isLoading")
            .values("/title", ["", "A very long title that wraps twice in a narrow card"]))
        let names = generated(component).map(\.name)
        #expect(names.contains("title=\"\""))
        #expect(names.contains("title=A very long title that w…"))
        #expect(names.contains("isLoading=true, title=\"\""))
        let labelled = try AnyComponent(panel().permutations(from: "Default", over: "/isLoading").values("/note", named: ["none": String?.none, "long": "a long note"]))
        #expect(generated(labelled).map(\.name).contains("note=long"))
        #expect(generated(labelled).first { $0.name == "note=none" }?.props["note"] == .null)
    }

    @Test func aSixDimensionExampleGoesAllPairsAndCoversEveryPair() throws {
        let base = Six(a: false, b: false, c: .draft, d: .draft, e: nil, f: .draft)
        let component = try AnyComponent(Component<Six>("Six") { Text("\($0.a)") }
            .variant("Base", base)
            .permutations(from: "Base", limit: 20))
        let stories = generated(component)
        // 2 x 2 x 3 x 3 x 3 x 3 = 324 combinations: far over 20, so all-pairs.
        #expect(stories.count < 30 && stories.count >= 9)
        let rows = ([try JSONValueEncoder().encode(base)] + stories.map(\.props)).map { props in
            ["a", "b", "c", "d", "e", "f"].map { props[$0]! }
        }
        let values: [[JSONValue]] = [[false, true], [false, true], ["draft", "review", "failed"], ["draft", "review", "failed"],
                                     [.null, false, true], ["draft", "review", "failed"]]
        for i in 0..<6 {
            for j in (i + 1)..<6 {
                for x in values[i] {
                    for y in values[j] {
                        #expect(rows.contains { $0[i] == x && $0[j] == y }, "pair \(i)=\(x), \(j)=\(y) is in no story")
                    }
                }
            }
        }
        // Deterministic: the same inputs give the same stories.
        let again = generated(try AnyComponent(Component<Six>("Six") { Text("\($0.a)") }.variant("Base", base).permutations(from: "Base", limit: 20)))
        #expect(again == stories)
    }

    @Test func allPairsCoversEveryPairOfCounts() {
        let counts = [4, 3, 3, 2, 2, 5]
        let rows = CoveringArray.allPairs(counts, filler: [0, 0, 0, 0, 0, 0])
        #expect(rows.count < CoveringArray.productSize(counts) / 4)
        for i in counts.indices {
            for j in counts.indices where j > i {
                for x in 0..<counts[i] {
                    for y in 0..<counts[j] {
                        #expect(rows.contains { $0[i] == x && $0[j] == y })
                    }
                }
            }
        }
        #expect(rows == CoveringArray.allPairs(counts, filler: [0, 0, 0, 0, 0, 0]))
    }

    @Test func aCombinationThatDoesNotDecodeIsLeftOutWithItsError() throws {
        let component = try AnyComponent(Component<Picky>("Picky") { Text($0.stage.rawValue) }
            .variant("Default", Picky(isLoading: false, stage: .draft))
            .permutations(from: "Default"))
        #expect(generated(component).map(\.name) == ["isLoading=true", "stage=review", "stage=failed", "isLoading=true, stage=review"])
        #expect(component.leftOut.count == 1)
        let left = try #require(component.leftOut.first)
        #expect(left.name == "isLoading=true, stage=failed")
        #expect(left.message.contains("cannot be loading"))
        let catalog = try Catalog([component])
        let entry = try #require(catalog.index["components"]?.arrayValue?.first)
        #expect(entry["leftOut"]?.arrayValue?.first?["name"] == "isLoading=true, stage=failed")
        #expect(component.overview()["leftOut"]?.arrayValue?.count == 1)
    }

    @Test func wrongSpecsStopTheCatalogWithAClearError() {
        func message(_ component: Component<Panel>) -> String {
            do {
                _ = try AnyComponent(component)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(message(panel().permutations(from: "Nope")).contains("no variant 'Nope'"))
        #expect(message(panel().permutations(from: "Default", over: "/missing")).contains("'/missing' names no field"))
        #expect(message(panel().permutations(from: "Default", over: "/title")).contains(".values(\"/title\""))
        #expect(message(panel().values("/title", ["x"])).contains("no .permutations(from:)"))
        #expect(message(panel().permutations(from: "Default").values("/nothing", [1])).contains("'/nothing'"))
    }

    @Test func theIndexMarksGeneratedStoriesWithTheirSettings() throws {
        let catalog = try Catalog { panel().permutations(from: "Default", over: "/isLoading") }
        let stories = try #require(catalog.index["components"]?.arrayValue?.first?["stories"]?.arrayValue)
        #expect(stories.last == ["id": "panel--isloading-true", "name": "isLoading=true", "generated": true, "settings": ["isLoading": true]])
        #expect(stories.first == ["id": "panel--default", "name": "Default"])
        #expect(catalog.story(id: "panel--isloading-true")?.props["isLoading"] == true)
    }

    @Test func theOverviewHasTheDescriptionThePropsTableAndTheStories() throws {
        let component = try AnyComponent(panel().description("A *panel*.").permutations(from: "Default", over: "/stage"))
        let overview = component.overview()
        #expect(overview["description"] == "A *panel*.")
        #expect(overview["base"] == "panel--default")
        let rows = try #require(overview["props"]?.arrayValue)
        #expect(rows.map { $0["path"] } == ["/title", "/isLoading", "/stage", "/note", "/fetch"])
        let stage = try #require(rows.first { $0["path"] == "/stage" })
        #expect(stage["type"] == "Stage" && stage["base"] == "draft")
        #expect(stage["values"]?.arrayValue?.map { $0["label"] } == ["draft", "review", "failed"])
        #expect(rows.first { $0["path"] == "/note" }?["type"] == "String?")
        #expect(rows.first { $0["path"] == "/fetch" }?["values"]?.arrayValue?.map { $0["label"] } == ["idle", "loading", "failed"])
        let stories = try #require(overview["stories"]?.arrayValue)
        #expect(stories.count == 5)
        #expect(stories.last?["settings"] == ["stage": "failed"])
        #expect(stories.last?["props"]?["stage"] == "failed")
    }

    @Test func theDemoGeneratesLoginAndLocationPickerStates() throws {
        let catalog = try DemoCatalog.make()
        let login = try #require(catalog.component(id: "auth-login"))
        #expect(generated(login).count == 11)
        #expect(generated(login).contains { $0.name == "status=invalid, username.value=long, password.value=empty" })
        #expect(login.leftOut.isEmpty)
        let picker = try #require(catalog.component(id: "maps-location-picker"))
        #expect(generated(picker).map(\.name) == [
            "status=loading", "status=failed", "locations=empty", "locations=long names",
            "status=loading, locations=empty", "status=loading, locations=long names",
            "status=failed, locations=empty", "status=failed, locations=long names",
        ])
        #expect(picker.summary?.isEmpty == false)
    }
}
