public import PropsCatalog

/// "Auth/Login": the login form from the talks, a Props enum of three screens.
public enum LoginProps: Codable, Sendable, Equatable {
    case input(LoginForm)
    case loading(cancel: Command)
    case cancelling
}

/// The form: two fields and whether it may be submitted.
public struct LoginForm: Codable, Sendable, Equatable {
    public var username: FormField
    public var password: FormField
    public var status: LoginStatus

    public init(username: String, password: String) {
        self.username = FormField(value: username, update: "username.update")
        self.password = FormField(value: password, update: "password.update")
        self.status = (username.isEmpty || password.isEmpty) ? .invalid : .valid(login: "login")
    }
}

/// A text field's value and the command an edit sends.
public struct FormField: Codable, Sendable, Equatable {
    public var value: String
    public var update: Command
}

/// Whether the form can be submitted, and with which command.
public enum LoginStatus: Codable, Sendable, Equatable {
    case invalid
    case valid(login: Command)
}

public enum Login {
    public static let component = Component<LoginProps>("Auth/Login") { props in
        switch props {
        case .input(let form):
            VStack {
                Heading("Sign in")
                TextField("Username", value: form.username.value, command: form.username.update)
                TextField("Password", value: form.password.value, isSecure: true, command: form.password.update)
                switch form.status {
                case .invalid:
                    Button("Log in", command: nil)
                    Text("Enter a username and a password.")
                case .valid(let login):
                    Button("Log in", command: login)
                }
            }
        case .loading(let cancel):
            VStack {
                Spinner("Signing in…")
                Button("Cancel", command: cancel)
            }
        case .cancelling:
            Spinner("Cancelling…")
        }
    }
    .variant("Empty", .input(LoginForm(username: "", password: "")))
    .variant("Filled", .input(LoginForm(username: "ada", password: "correct horse")))
    .variant("Missing password", .input(LoginForm(username: "ada", password: "")))
    .variant("Long username", .input(LoginForm(username: String(repeating: "ada.lovelace+storybook", count: 12), password: "x")))
    .variant("Loading", .loading(cancel: "cancel"))
    .variant("Cancelling", .cancelling)
    .suggesting(suggest)
    .description("The sign-in form. *Loading* and *cancelling* replace the form; the **Log in** button needs a `valid` status. See [the design talk](https://example.com/talks/login).")
    .permutations(from: "Filled", over: "/input/_0/status", "/input/_0/username/value", "/input/_0/password/value")
    .values("/input/_0/username/value", named: ["empty": "", "long": String(repeating: "ada.lovelace+storybook", count: 6)])
    .values("/input/_0/password/value", named: ["empty": ""])

    /// Field updates change their value; "login" on a valid form starts loading; "cancel" cancels.
    static func suggest(_ props: LoginProps, _ invocation: CommandInvocation) -> LoginProps? {
        switch (props, invocation.command.name) {
        case (.input(let form), "username.update"):
            guard let text = invocation.text else { return nil }
            return .input(LoginForm(username: text, password: form.password.value))
        case (.input(let form), "password.update"):
            guard let text = invocation.text else { return nil }
            return .input(LoginForm(username: form.username.value, password: text))
        case (.input(let form), "login"):
            guard case .valid = form.status else { return nil }
            return .loading(cancel: "cancel")
        case (.loading, "cancel"):
            return .cancelling
        default:
            return nil
        }
    }
}
