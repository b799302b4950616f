extension EditError.Code {
    /// An environment query parameter (or WebSocket `environment` member) outside its domain.
    public static let badEnvironment = EditError.Code(rawValue: "bad-environment")
}
