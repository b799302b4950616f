// Apple platforms only: compiled where SwiftUI exists, never on Linux (this project's machines do not
// build it). The pattern an iOS or macOS app follows; docs/client.md walks through it.
#if canImport(SwiftUI)
import DemoCatalog
import Observation
import PropsCatalog
import StorybookClient
import SwiftUI

/// Holds the Props the browser picked, on the main actor, for SwiftUI to observe.
@MainActor @Observable
final class StorybookPreviewModel {
    var login: RendererState<LoginProps>?
    let client: StorybookClient

    init(url: URL) {
        client = StorybookClient(.init(url: url, name: "iPhone (simulator)", platform: "iOS"))
        client.follow(Login.component) { [weak self] state in
            Task { @MainActor in self?.login = state }
        }
        client.start()
    }
}

/// The app's real login screen, driven by the storybook: it renders Props and emits commands, nothing else.
struct StorybookLoginPreview: View {
    let model: StorybookPreviewModel

    var body: some View {
        if let state = model.login {
            LoginScreen(props: state.props) { command in model.client.dispatch(command) }
                .onAppear { model.client.report(state, text: "rendered by SwiftUI") }
                .onChange(of: state.version) { model.client.report(state, text: "rendered by SwiftUI") }
        } else {
            Text("Pick a login story in the storybook and show it on this device")
        }
    }
}

/// A stand-in for the app's own view.
struct LoginScreen: View {
    let props: LoginProps
    let send: (Command) -> Void

    var body: some View {
        switch props {
        case .input(let form):
            Form {
                Text(form.username.value)
                Button("Log in") { send("login") }
            }
        case .loading:
            ProgressView()
            Button("Cancel") { send("cancel") }
        case .cancelling:
            Text("Cancelling...")
        }
    }
}
#endif
