/// What a generated story sets, in dimension order: only the dimensions whose value differs from
/// the base variant's, so an id always names the same settings and, in a full product, adding a
/// dimension leaves the names (and ids) of existing stories alone.
package struct StorySettings: Sendable, Equatable {
    /// One dimension's value in a story.
    package struct Setting: Sendable, Equatable {
        package var dimension: String
        package var label: String
        package var value: JSONValue
    }

    package var settings: [Setting]

    /// The story's name: `isLoading=true, status=failed`.
    package var name: String {
        settings.map { "\($0.dimension)=\($0.label)" }.joined(separator: ", ")
    }

    /// `{"isLoading": true, "status": "failed"}` as the index and the overview list it.
    package var json: JSONValue {
        .object(Dictionary(settings.map { ($0.dimension, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }
}

/// A generated combination that did not become a story, and why: its props do not decode into the
/// Props type, or its id is taken. Listed in the index, the overview and the start-up log.
package struct LeftOutStory: Sendable, Equatable {
    package let name: String
    package let settings: StorySettings
    package let message: String
    /// The field at fault, when one is.
    package let path: String?

    package var json: JSONValue {
        var error: [String: JSONValue] = ["message": .string(message)]
        if let path { error["path"] = .string(path) }
        return ["name": .string(name), "settings": settings.json, "error": .object(error)]
    }
}
