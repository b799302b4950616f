// A headless renderer: `headless-renderer ws://127.0.0.1:6006/ws [--name NAME] [--token T] [--image FILE.png]`.
//
// It announces itself to the server, renders whatever story of the demo's login and profile components
// the browser shows on it (the text projection), reports the text back, and prints each render.
// `--image` adds the PNG in FILE to every report, as an app's screenshot would be (to try image reports).
// A line on standard input is a command of the story being shown: `login`, or `username.update ada`
// (the rest of the line is the payload); the server applies the component's suggestion for it.
import DemoCatalog
import Foundation
import PropsCatalog
import StorybookClient

var arguments = Array(CommandLine.arguments.dropFirst())
let name = HeadlessRenderer.take("--name", from: &arguments) ?? "headless-\(ProcessInfo.processInfo.hostName)"
let token = HeadlessRenderer.take("--token", from: &arguments)
let imagePath = HeadlessRenderer.take("--image", from: &arguments)
guard let address = arguments.first, let url = URL(string: address) else {
    FileHandle.standardError.write(Data("usage: headless-renderer ws://HOST:PORT/ws [--name NAME] [--token TOKEN] [--image FILE.png]\n".utf8))
    exit(64)
}
let image: Data? = imagePath.map { path in
    guard let contents = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("headless-renderer: cannot read \(path)\n".utf8))
        exit(66)
    }
    return contents
}

var configuration = StorybookClient.Configuration(url: url, name: name, platform: "Linux (headless)", token: token)
configuration.maximumBackoff = .seconds(1)
let client = StorybookClient(configuration)

client.follow(Login.component) { [client, image] in HeadlessRenderer.render(Login.component, $0, client: client, image: image) }
client.follow(Profile.component) { [client, image] in HeadlessRenderer.render(Profile.component, $0, client: client, image: image) }
client.start()
HeadlessRenderer.say("renderer \(name) connecting to \(url.absoluteString)")

// Says on standard error when the connection comes up or goes down, and why (a refused token, a
// server that went away), once per change rather than once per retry.
DispatchQueue.global().async { [client] in
    var last = ""
    while true {
        let line: String? = switch client.status {
        case .connected: "connected"
        case .waiting(let reason): "not connected: \(reason)"
        case .idle, .connecting, .stopped: nil
        }
        if let line, line != last {
            FileHandle.standardError.write(Data("headless-renderer: \(line)\n".utf8))
            last = line
        }
        usleep(100_000)
    }
}

while let line = readLine() {
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = parts.first else { continue }
    client.dispatch(Command(command), payload: parts.count > 1 ? .string(parts[1]) : nil)
    HeadlessRenderer.say("dispatched \(command)")
}
// Standard input closed: keep rendering until stopped.
while true { sleep(3600) }
