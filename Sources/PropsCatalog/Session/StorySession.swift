package import Foundation

/// The live state of one story: a single-writer state machine that validates every edit by
/// decoding it into the Props type, numbers the versions and records the history.
///
/// Every change travels one path: edit -> candidate props -> validate (decode, re-encode,
/// render) -> new version -> history. A refused edit returns an error and changes nothing.
package struct StorySession: Sendable {
    package let story: Catalog.Story
    package private(set) var version: Int
    package private(set) var props: JSONValue
    package private(set) var projections: Projections
    package private(set) var history: StoryHistory
    /// Versions to go back to, most recent last.
    private var undoStack: [Int] = []
    /// Versions undone, to go forward to again.
    private var redoStack: [Int] = []
    /// The undo group the live version was made in, while the next change may continue it.
    private var openUndoGroup: OpenUndoGroup?
    /// What validating the props decoded and encoded, so that validating an edit redoes only the
    /// parts it changed. A cache: copies of the session share it.
    package let memo = RoundTripMemo()
    /// The weight of `props` and the limit it was measured under, when an edit's size check measured
    /// it (the props an edit kept as sent): the next patch charges it instead of walking the props again.
    private(set) var measuredWeight: MeasuredWeight?

    /// A session at version 1 with the registered props. Fails if the registered props do not
    /// decode, which `Catalog` rules out for encodable variants of a sound Props type.
    package init(story: Catalog.Story, history: StoryHistory = StoryHistory(), at date: Date = Date()) throws(EditError) {
        let validated: AnyComponent.Validated
        switch story.component.validate(story.props, memo: memo) {
        case .success(let value): validated = value
        case .failure(let error): throw EditError(error)
        }
        self.story = story
        self.version = 1
        self.props = validated.props
        self.projections = Projections(validated.view)
        self.history = history
        self.history.record(
            HistoryEntry(version: 1, at: date, kind: .registered, source: .registration, ref: nil, command: nil, patch: JSONPatch(operations: [])),
            props: validated.props)
    }

    /// A session rebuilt from recorded versions, oldest first, each with its full props: the live
    /// state is the last one and the numbering goes on from it. Every version is validated by
    /// decoding it into the Props type; the first that does not decode is thrown with its version.
    package init(story: Catalog.Story, restoring versions: [(entry: HistoryEntry, props: JSONValue)],
                history: StoryHistory = StoryHistory()) throws(RestoreError) {
        guard let first = versions.first else { throw RestoreError(version: 0, reason: "nothing to restore") }
        var history = history
        var last: AnyComponent.Validated?
        var expected = first.entry.version
        for (entry, props) in versions {
            guard entry.version == expected else {
                throw RestoreError(version: entry.version, reason: "expected version \(expected), found \(entry.version)")
            }
            switch story.component.validate(props, memo: memo) {
            case .failure(let error):
                throw RestoreError(version: entry.version, reason: error.description)
            case .success(let validated):
                history.record(entry, props: validated.props)
                last = validated
            }
            expected += 1
        }
        self.story = story
        self.version = expected - 1
        self.props = last!.props
        self.projections = Projections(last!.view)
        self.history = history
    }

    /// Whether `undo` has something to go back to.
    package var canUndo: Bool { undoStack.last.map(isRecorded) ?? false }
    /// Whether `redo` has something to go forward to.
    package var canRedo: Bool { redoStack.last.map(isRecorded) ?? false }

    /// Whether `version` is still in the history (cheap: no props are rebuilt).
    private func isRecorded(_ version: Int) -> Bool {
        guard let oldest = history.oldestVersion, let newest = history.newestVersion else { return false }
        return (oldest...newest).contains(version)
    }

    /// Applies `edit` if it is valid. `base`, when given, must be the live version. `undoGroup`: see
    /// ``prepare(_:base:source:ref:undoGroup:at:limit:)``.
    package mutating func apply(
        _ edit: Edit, base: Int? = nil, source: ChangeSource, ref: String? = nil, undoGroup: String? = nil,
        at date: Date = Date(), limit: JSONSizeLimit = .default
    ) -> Result<EditOutcome, EditError> {
        prepare(edit, base: base, source: source, ref: ref, undoGroup: undoGroup, at: date, limit: limit).map { prepared in
            prepared.map { .changed(commit($0)) } ?? .unchanged
        }
    }

    /// Validates `edit` without changing anything: the change to commit, nil when there is nothing
    /// to change (a command with no suggestion), or why the edit is refused. The hub journals the
    /// prepared change before it commits it. Candidate props past `limit` are refused `too-large`
    /// before they are decoded, and a patch stops as soon as it would build past it.
    ///
    /// `undoGroup`: a change made right after one of the same group and source (a run of typing in
    /// one field) is one step with it for undo and redo: undo goes back to before the group's first
    /// change. Any other change in between ends the group.
    package func prepare(
        _ edit: Edit, base: Int? = nil, source: ChangeSource, ref: String? = nil, undoGroup: String? = nil,
        at date: Date = Date(), limit: JSONSizeLimit = .default
    ) -> Result<PreparedChange?, EditError> {
        if let base, base != version {
            return .failure(EditError(.conflict, "base version \(base) is not the live version \(version)"))
        }
        let candidate: JSONValue
        /// The candidate's weight when the patch that built it followed it (see `JSONPatch.apply(to:limit:measuredWeight:)`).
        var patchedWeight: Int?
        var command: Command?
        switch edit {
        case .replace(let json), .replay(let json):
            candidate = json
        case .patch(let patch):
            do {
                if let known = measuredWeight.flatMap({ $0.limit == limit ? $0.weight : nil }) {
                    (candidate, patchedWeight) = try patch.apply(to: props, limit: limit, measuredWeight: known)
                } else {
                    candidate = try patch.apply(to: props, limit: limit)
                }
            } catch {
                return .failure(EditError(error))
            }
        case .reset:
            candidate = story.props
        case .dispatch(let invocation):
            command = invocation.command
            switch story.component.suggest(from: props, invocation) {
            case .failure(let error): return .failure(error)
            case .success(nil): return .success(nil)
            case .success(let suggested?): candidate = suggested
            }
        case .undo, .redo, .seek:
            switch recordedProps(for: edit) {
            case .success(let past): candidate = past
            case .failure(let error): return .failure(error)
            }
        }
        assert(patchedWeight == nil || patchedWeight == candidate.weight(upTo: .max, depth: .max), "a patch's running weight is exact")
        let fittingWeight: Int? = if let patchedWeight { patchedWeight <= limit.weight ? patchedWeight : nil } else { candidate.weight(within: limit) }
        guard let weight = fittingWeight else {
            return .failure(EditError(.tooLarge, "the props would exceed the size limit (\(limit.weight) bytes, \(limit.depth) levels deep)"))
        }
        let validated: AnyComponent.Validated
        switch story.component.validate(candidate, memo: memo) {
        case .success(let value): validated = value
        case .failure(let error): return .failure(EditError(error))
        }
        let entry = HistoryEntry(
            version: version + 1, at: date, kind: edit.kind, source: source, ref: ref, command: command,
            patch: JSONPatch.diff(from: props, to: validated.props))
        // The weight measured is the new props' only when validation kept the candidate itself.
        let kept = validated.props.storageAddress.map { $0 == candidate.storageAddress } ?? false
        return .success(PreparedChange(
            validated: validated, entry: entry, measuredWeight: kept ? MeasuredWeight(weight: weight, limit: limit) : nil,
            undoGroup: undoGroup.map { OpenUndoGroup(name: $0, source: source.description) }))
    }

    /// The recorded props an undo, redo or seek goes back to; when there are none, the error that says
    /// so, and when the history cannot rebuild them (``HistoryDamage``), the same code with a message
    /// that says that.
    private func recordedProps(for edit: Edit) -> Result<JSONValue, EditError> {
        let target: Int?
        let missing: EditError
        switch edit {
        case .undo:
            (target, missing) = (undoStack.last, EditError(.conflict, "nothing to undo"))
        case .redo:
            (target, missing) = (redoStack.last, EditError(.conflict, "nothing to redo"))
        case .seek(let version):
            let range = history.oldestVersion.map { "\($0)...\(self.version)" } ?? "none"
            (target, missing) = (version, EditError(.unknownVersion, "version \(version) is not in the history (recorded: \(range))"))
        default:
            preconditionFailure("\(edit.kind) does not go back in the history")
        }
        guard let target else { return .failure(missing) }
        do {
            guard let props = try history.props(at: target) else { return .failure(missing) }
            return .success(props)
        } catch {
            return .failure(EditError(missing.code, "version \(target) cannot be rebuilt: \(error)"))
        }
    }

    /// Makes a prepared change the live state; it must have been prepared from the current version.
    package mutating func commit(_ prepared: PreparedChange) -> Change {
        let previous = version
        let entry = prepared.entry
        let continuesGroup = prepared.undoGroup != nil && prepared.undoGroup == openUndoGroup
        precondition(entry.version == previous + 1, "a prepared change must be committed on the version it was prepared from")
        switch entry.kind {
        case .undo:
            undoStack.removeLast()
            redoStack.append(previous)
        case .redo:
            redoStack.removeLast()
            undoStack.append(previous)
        case .registered:
            break
        default:  // a replay's step too: each is a change, which undo takes back one at a time
            // A change that continues the group of the one before it leaves the undo target where
            // the group began (the redo stack was emptied by the group's first change).
            if !continuesGroup {
                undoStack.append(previous)
                redoStack.removeAll()
            }
        }
        openUndoGroup = prepared.undoGroup
        if undoStack.count > history.capacity { undoStack.removeFirst(undoStack.count - history.capacity) }
        version = previous + 1
        props = prepared.validated.props
        measuredWeight = prepared.measuredWeight
        projections = Projections(prepared.validated.view, reusing: projections)
        history.record(entry, props: props)
        // A run so long that the history dropped the version before it goes on as a new step from
        // the version before this change, so that undo always has a recorded version to go back to.
        if continuesGroup, !canUndo { undoStack.append(previous) }
        return Change(storyID: story.id, version: version, props: props, projections: projections, entry: entry)
    }
}

/// A validated edit, not yet made: its new props and view, and the history entry it will record.
package struct PreparedChange: Sendable {
    let validated: AnyComponent.Validated
    package let entry: HistoryEntry
    /// The new props' weight, when the size check measured exactly them.
    let measuredWeight: MeasuredWeight?
    /// The undo group the change was made in, if any.
    let undoGroup: OpenUndoGroup?
    /// The props the change makes live.
    package var props: JSONValue { validated.props }
}

/// An undo group's name and the source whose changes it groups (`ws:2`; another source's change in
/// the same group ends it).
struct OpenUndoGroup: Sendable, Equatable {
    let name: String
    let source: String
}

/// A document's weight (see ``JSONSizeLimit``), measured within `limit`'s weight and depth.
struct MeasuredWeight: Sendable {
    let weight: Int
    let limit: JSONSizeLimit
}
