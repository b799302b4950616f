import PropsCatalog
import Testing

/// The one differing run between two strings, in UTF-16 units, never splitting a scalar.
@Suite struct TextSpliceTests {
    /// What JavaScript does with the splice: UTF-16 units kept, replaced, kept.
    private func javaScriptApply(_ splice: TextSplice, to old: String) -> [UInt16] {
        let units = Array(old.utf16)
        return Array(units[..<splice.offset]) + Array(splice.inserted.utf16) + Array(units[(splice.offset + splice.removed)...])
    }

    @Test(arguments: [
        ("", ""), ("", "abc"), ("abc", ""), ("abc", "abc"), ("abcdef", "abXdef"),
        ("<li>Item 250</li><li>Item 251</li>", "<li>Renamed</li><li>Item 251</li>"),
        ("★ 8.1", "★ 8,1"), ("a😀b", "a😁b"), ("é", "è"), ("e\u{301}x", "e\u{300}x"), ("aaaa", "aaaaa"),
        (String(repeating: "0123456789", count: 40) + "x" + String(repeating: "z", count: 33), String(repeating: "0123456789", count: 40) + "yy" + String(repeating: "z", count: 33)),
    ])
    func turnsTheOldStringIntoTheNew(old: String, new: String) throws {
        let splice = TextSplice(from: old, to: new)
        #expect(splice.applied(to: old) == new)
        #expect(javaScriptApply(splice, to: old) == Array(new.utf16))
        #expect(splice.isEmpty == (old == new))
    }

    @Test func keepsTheLongestCommonEnds() {
        let splice = TextSplice(from: "<li>Item 250</li><li>Item 251</li>", to: "<li>Renamed</li><li>Item 251</li>")
        #expect(splice.offset == 4)
        #expect(splice.inserted == "Renamed")
        #expect(splice.removed == "Item 250".utf16.count)
        // A four-byte scalar is two UTF-16 units before the change.
        let emoji = TextSplice(from: "😀 one", to: "😀 two")
        #expect(emoji.offset == 3)
        #expect(emoji.inserted == "two" && emoji.removed == 3)
    }

    @Test func neverSplitsAScalar() {
        // "😀" and "😁" share their first three UTF-8 bytes; the splice starts before them.
        let splice = TextSplice(from: "a😀b", to: "a😁b")
        #expect(splice.offset == 1)
        #expect(splice.removed == 2)
        #expect(splice.inserted == "😁")
        // "é" (C3 A9) and "è" (C3 A8) share a lead byte.
        #expect(TextSplice(from: "é", to: "è") == TextSplice(offset: 0, removed: 1, inserted: "è"))
    }

    @Test func randomEditsOfMixedText() {
        var generator = SeededGenerator(seed: 18)
        let alphabet: [Character] = ["a", "b", "<", ">", "é", "★", "😀", "\u{301}", " ", "\n"]
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 40)
            let old = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            var characters = Array(old)
            for _ in 0..<(1 + generator.next() % 3) {
                let at = characters.isEmpty ? 0 : Int(generator.next() % UInt64(characters.count + 1))
                if generator.next() % 2 == 0 || characters.isEmpty {
                    characters.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: at)
                } else {
                    characters.remove(at: min(at, characters.count - 1))
                }
            }
            let new = String(characters)
            let splice = TextSplice(from: old, to: new)
            #expect(javaScriptApply(splice, to: old) == Array(new.utf16), "\(old.debugDescription) -> \(new.debugDescription)")
            #expect(splice.applied(to: old) == new)
        }
    }

    /// Long strings, so that whole chunks are compared at once on both ends, ASCII and not.
    @Test(arguments: [false, true])
    func editsOfLongStrings(ascii: Bool) {
        var generator = SeededGenerator(seed: ascii ? 1 : 2)
        let alphabet: [Character] = ascii ? ["a", "b", "<", ">", " ", "\""] : ["a", "é", "★", "😀", "<"]
        let base = Array((0..<5_000).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        for _ in 0..<200 {
            var characters = base
            let at = Int(generator.next() % UInt64(base.count))
            let length = Int(generator.next() % 40)
            characters.replaceSubrange(at..<min(base.count, at + length), with: (0..<Int(generator.next() % 30)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let old = String(base)
            let new = String(characters)
            let splice = TextSplice(from: old, to: new)
            #expect(javaScriptApply(splice, to: old) == Array(new.utf16))
            #expect(splice.inserted.utf16.count <= 30 * 2)
        }
    }

    /// Ends known to be shared (any number of bytes up to the real common start and end, even in
    /// the middle of a scalar) give the very splice found without them.
    @Test(arguments: [false, true])
    func knownSharedEndsGiveTheSameSplice(ascii: Bool) {
        var generator = SeededGenerator(seed: ascii ? 3 : 4)
        let alphabet: [Character] = ascii ? ["a", "b", "<", ">", " "] : ["a", "é", "★", "😀", "<"]
        let base = Array((0..<3_000).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        for _ in 0..<200 {
            var characters = base
            let at = Int(generator.next() % UInt64(base.count))
            characters.replaceSubrange(at..<min(base.count, at + Int(generator.next() % 40)),
                                       with: (0..<Int(generator.next() % 30)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let old = String(base)
            let new = String(characters)
            let (prefix, suffix) = ProjectionReuseTests.commonEnds(Array(old.utf8), Array(new.utf8))
            let known = TextSplice.SharedEnds(prefix: Int(generator.next() % UInt64(prefix + 1)), suffix: Int(generator.next() % UInt64(suffix + 1)))
            #expect(TextSplice(from: old, to: new, sharing: known) == TextSplice(from: old, to: new), "\(known) of \((prefix, suffix))")
        }
    }

    @Test func aSpliceThatDoesNotFitIsRefused() {
        #expect(TextSplice(offset: 5, removed: 1, inserted: "x").applied(to: "abc") == nil)
        #expect(TextSplice(offset: 1, removed: 0, inserted: "x").applied(to: "😀") == nil)  // inside a surrogate pair
    }
}
