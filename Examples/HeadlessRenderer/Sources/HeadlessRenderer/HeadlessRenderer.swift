import Foundation
import PropsCatalog
import StorybookClient

/// What the headless renderer does with a state, and its small helpers.
enum HeadlessRenderer {
    /// Renders a state with the component's own view and the library's text projection, reports the
    /// text to the server (with `image`, PNG bytes, when given) and prints it.
    static func render<Props>(_ component: Component<Props>, _ state: RendererState<Props>, client: StorybookClient, image: Data? = nil) {
        let text = TextProjection.render(component.view(state.props))
        client.report(state, image: image, text: text)
        say("rendered \(state.story) v\(state.version)\n\(text)")
    }

    /// Prints at once (standard output may be a pipe).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Removes `--name value` from the arguments and returns the value.
    static func take(_ name: String, from arguments: inout [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        defer { arguments.removeSubrange(index...(index + 1)) }
        return arguments[index + 1]
    }
}
