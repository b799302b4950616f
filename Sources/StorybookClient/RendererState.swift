/// One state of a story the renderer is asked to show, with its Props decoded.
public struct RendererState<Props: Sendable>: Sendable {
    /// The story id, `auth-login--filled`.
    public let story: String
    /// The component id, `auth-login`.
    public let component: String
    /// The story's version: reports name it, so the browser can tell a stale render.
    public let version: Int
    /// The props to show, decoded into the component's Props type.
    public let props: Props
}

extension RendererState: Equatable where Props: Equatable {}
