package import Foundation

/// A story's recorded changes as a portable value: exported as JSON, imported, replayed.
///
/// `{"v": 1, "story", "base": props, "entries": [{"version", "at", "kind", "source", "patch"}]}`:
/// the base is the full props of the first entry's version; each later entry is a patch from the
/// one before. An import is validated entry by entry before anything is applied.
package struct Recording: Sendable, Equatable {
    /// One recorded state.
    package struct Step: Sendable, Equatable {
        package let version: Int
        package let at: Date
        package let kind: ChangeKind
        package let props: JSONValue
    }

    package let story: String
    /// Every recorded state with its full props, oldest first.
    package let steps: [Step]

    /// The recording of `session`'s history from `from` to `to` (inclusive; defaults: all of it).
    package init(_ session: StorySession, from: Int? = nil, to: Int? = nil) throws(RecordingError) {
        let history = session.history
        guard let oldest = history.oldestVersion, let newest = history.newestVersion else {
            throw RecordingError(.notRecorded, "no history recorded")
        }
        let first = from ?? oldest
        let last = to ?? newest
        guard oldest <= first, first <= last, last <= newest else {
            throw RecordingError(.notRecorded, "versions \(first)...\(last) are not all in the history (recorded: \(oldest)...\(newest))")
        }
        var steps: [Step] = []
        for version in first...last {
            let rebuilt: JSONValue?
            do {
                rebuilt = try history.props(at: version)
            } catch {
                throw RecordingError(.notRecorded, "version \(version) cannot be rebuilt: \(error)")
            }
            guard let entry = history.entry(version: version), let props = rebuilt else {
                throw RecordingError(.notRecorded, "version \(version) is not in the history")
            }
            steps.append(Step(version: version, at: entry.at, kind: entry.kind, props: props))
        }
        self.story = session.story.id
        self.steps = steps
    }

    /// Reads a recording for `story`, validating every step by decoding it into the Props type of
    /// `component`. The first bad entry is the error; nothing is returned partially.
    ///
    /// The whole recording gets the work of one edit under `limit`: the props of every entry (each is
    /// decoded) and all that the entries' patches insert, copy or shift are charged to one budget of
    /// `limit.weight`, so a recording of many entries cannot cost more than one message may. Past it,
    /// the entry at fault is the error (`tooLarge`).
    package init(json: JSONValue, story: String, component: AnyComponent, limit: JSONSizeLimit = .default) throws(RecordingError) {
        guard case .object = json else { throw RecordingError(.malformed, "a recording is a JSON object") }
        guard json["v"] == 1 else { throw RecordingError(.malformed, "unknown recording format: expected \"v\": 1", path: "/v") }
        guard let base = json["base"] else { throw RecordingError(.malformed, "missing field base", path: "/base") }
        guard let entries = json["entries"]?.arrayValue, !entries.isEmpty else {
            throw RecordingError(.malformed, "entries must be a non-empty array", path: "/entries")
        }
        var steps: [Step] = []
        var props = base
        var budget = JSONPatch.Budget(limit: limit)
        func overBudget(_ index: Int) -> RecordingError {
            RecordingError(
                .tooLarge, "entry \(index): the recording's entries together would exceed the size limit "
                    + "(\(limit.weight) bytes of props and patch work for the whole recording, \(limit.depth) levels deep)",
                path: "/entries/\(index)")
        }
        for (index, entry) in entries.enumerated() {
            let pointer = "/entries/\(index)"
            guard let at = entry["at"]?.stringValue.flatMap(ISO8601.date(from:)) else {
                throw RecordingError(.malformed, "entry \(index): at must be an ISO 8601 date-time", path: pointer + "/at")
            }
            let version = entry["version"]?.integerValue.flatMap { Int(exactly: $0) } ?? index + 1
            let kind = entry["kind"]?.stringValue.flatMap(ChangeKind.init(rawValue:)) ?? .replay
            if index > 0 || entry["patch"] != nil {
                do {
                    let patch = try JSONPatch(json: entry["patch"] ?? .array([]))
                    props = try patch.apply(to: props, budget: &budget)
                } catch where error.kind == .tooLarge {
                    throw overBudget(index)
                } catch {
                    throw RecordingError(.invalidPatch, "entry \(index): \(error.message)", path: pointer + "/patch")
                }
            }
            guard budget.spend(weightOf: props) else { throw overBudget(index) }
            switch component.validate(props) {
            case .failure(let error):
                throw RecordingError(.invalidProps, "entry \(index) (version \(version)): \(error.message)", path: pointer + "/props" + error.path.description)
            case .success(let validated):
                steps.append(Step(version: version, at: at, kind: kind, props: validated.props))
            }
            if let previous = steps.dropLast().last, previous.at > at {
                throw RecordingError(.malformed, "entry \(index): entries must be in time order", path: pointer + "/at")
            }
        }
        self.story = story
        self.steps = steps
    }

    /// The portable JSON form.
    package var json: JSONValue {
        var entries: [JSONValue] = []
        var previous: JSONValue?
        for step in steps {
            entries.append(.object([
                "version": .integer(Int64(step.version)), "at": .string(ISO8601.string(from: step.at)),
                "kind": .string(step.kind.rawValue),
                "patch": previous.map { JSONPatch.diff(from: $0, to: step.props).json } ?? .array([]),
            ]))
            previous = step.props
        }
        return .object(["v": 1, "story": .string(story), "base": steps.first?.props ?? .null, "entries": .array(entries)])
    }

    /// The waits between steps when played `speed` times faster than recorded, each gap at most
    /// `maxGap` seconds: the first step plays at once.
    package func delays(speed: Double, maxGap: TimeInterval = 10) -> [TimeInterval] {
        guard speed > 0 else { return Array(repeating: 0, count: steps.count) }
        return steps.indices.map { index in
            index == 0 ? 0 : min(steps[index].at.timeIntervalSince(steps[index - 1].at) / speed, maxGap)
        }
    }
}
