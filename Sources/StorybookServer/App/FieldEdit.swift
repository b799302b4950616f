import PropsCatalog
import StorybookTransport

/// A connection's patch whose every operation replaces the value at one pointer: what a client's text
/// field sends as its user types.
struct FieldEdit: Equatable {
    let connection: ConnectionID
    let pointer: JSONPointer
}

extension FieldEdit {
    /// The field `edit` sets, when it is a patch replacing one pointer's value and nothing else.
    init?(_ edit: Edit, by connection: ConnectionID?) {
        guard let connection, case .patch(let patch) = edit, case .replace(let pointer, _)? = patch.operations.first,
              patch.operations.allSatisfy({ if case .replace(pointer, _) = $0 { true } else { false } })
        else { return nil }
        self.init(connection: connection, pointer: pointer)
    }
}
