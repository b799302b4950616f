@testable import StorybookServer
import Testing

/// The table the loop thread looks story ids up in by their bytes: it must answer as a dictionary does.
@Suite struct StoryTableTests {
    private func lookUp<Value>(_ table: StoryTable<Value>, bytes id: String) -> Value? {
        var id = id
        return id.withUTF8 { table[utf8: $0] }
    }

    @Test func itAnswersAsADictionaryThroughGrowthAndRemovals() {
        var table = StoryTable<Int>()
        var model: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<3000).map { "component-\($0 % 97)--variant-\($0)" } + ["", "é--ü", "a", "ab", "ba"]
        for step in 0..<20000 {
            let id = ids.randomElement(using: &generator)!
            if step % 7 == 3 {
                table[id: id] = nil
                model[id] = nil
            } else {
                table[id: id] = step
                model[id] = step
            }
        }
        for id in ids + ["missing", "component-1--variant-", "component-1--variant-10000"] {
            #expect(table[id: id] == model[id], "\(id)")
            #expect(lookUp(table, bytes: id) == model[id], "\(id)")
            var bytes = id
            #expect(bytes.withUTF8 { utf8 in table.withValue(utf8: utf8) { $0 * 2 } } == model[id].map { $0 * 2 }, "\(id)")
        }
    }

    @Test func anIdIsFoundOnlyByItsOwnBytes() {
        var table = StoryTable<String>()
        table[id: "profile-user-profile--default"] = "card"
        #expect(lookUp(table, bytes: "profile-user-profile--default") == "card")
        for other in ["profile-user-profile--defaul", "profile-user-profile--defaultt", "Profile-user-profile--default", ""] {
            #expect(lookUp(table, bytes: other) == nil, "\(other)")
        }
    }
}
