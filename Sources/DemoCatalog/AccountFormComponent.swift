public import PropsCatalog

/// "Settings/Account Form": a form with the accessibility problems the audit finds, and the same
/// form fixed. Its audit level is `todo`: the problems are reported, CI does not fail on them.
public struct AccountFormProps: Codable, Sendable, Equatable {
    public var displayName: String
    public var avatarURL: String
    public var notifications: Bool
    /// Whether the icon buttons, the avatar and the headings carry what assistive technology needs.
    public var isAccessible: Bool
}

public enum AccountForm {
    static let avatar = "https://example.com/avatars/ada.png"

    public static let component = Component<AccountFormProps>("Settings/Account Form") { props in
        VStack {
            Heading("Account")
            if props.isAccessible {
                Image(url: props.avatarURL, alt: "Avatar of \(props.displayName)")
                Heading("Profile", level: 2)
            } else {
                Image(url: props.avatarURL, alt: "")
                Heading("Profile", level: 3)
            }
            HStack {
                TextField("Display name", value: props.displayName, command: "name.update")
                if props.isAccessible {
                    Button(icon: "pencil", command: "name.edit").accessibilityLabel("Edit display name")
                    Button(icon: "trash", command: "account.delete").accessibilityLabel("Delete account")
                        .accessibilityHint("Asks before deleting anything")
                } else {
                    Button(icon: "pencil", command: "name.edit")
                    Button(icon: "trash", command: "account.delete")
                }
            }
            Toggle("Notifications", isOn: props.notifications, command: "notifications.toggle")
            if props.isAccessible {
                Image(decorative: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='120' height='4'/%3E")
                ProgressView("Profile complete", fraction: 0.6).accessibilityValue("3 of 5 steps")
            }
        }
    }
    .variant("Broken", AccountFormProps(displayName: "Ada", avatarURL: avatar, notifications: true, isAccessible: false))
    .variant("Fixed", AccountFormProps(displayName: "Ada", avatarURL: avatar, notifications: true, isAccessible: true))
    .accessibilityAudit(.todo)
    .suggesting { props, invocation in
        var next = props
        switch invocation.command.name {
        case "notifications.toggle": next.notifications.toggle()
        case "name.update":
            guard let text = invocation.text else { return nil }
            next.displayName = text
        default: return nil
        }
        return next
    }
}
