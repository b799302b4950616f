/// How a component's audit findings count: `error` (the default) fails CI, `todo` is reported and
/// never fails (known problems being worked on), `off` does not audit the component.
public enum AuditLevel: String, Sendable, Hashable, CaseIterable {
    case error, todo, off
}
