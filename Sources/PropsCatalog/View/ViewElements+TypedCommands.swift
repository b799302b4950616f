// The view elements that send commands, taking a typed command (`CommandRepresentable`) directly.

extension Button {
    /// A button that sends a typed command: `Button("Check out", command: CartCommand.checkout)`.
    public init(_ label: String, command: some CommandRepresentable) {
        self.init(label, command: Optional(command.command))
    }
}

extension TextField {
    /// A text field whose edits send a typed command with the new text as payload.
    public init(_ label: String, value: String, isSecure: Bool = false, command: some CommandRepresentable) {
        self.init(label, value: value, isSecure: isSecure, command: Optional(command.command))
    }
}

extension Toggle {
    /// An on/off switch whose flips send a typed command.
    public init(_ label: String, isOn: Bool, command: some CommandRepresentable) {
        self.init(label, isOn: isOn, command: Optional(command.command))
    }
}

extension ListItem {
    /// A list item that sends a typed command when chosen.
    public init(isSelected: Bool = false, command: some CommandRepresentable, @ViewBuilder _ content: () -> [ViewNode]) {
        self.init(isSelected: isSelected, command: Optional(command.command), content)
    }
}
