/// A command the component's typed commands do not know.
struct UnknownCommand: Error, Sendable {
    let message: String
}
