import Foundation
import PropsCatalog

/// A message a WebSocket client may send, parsed and checked field by field.
enum ClientMessage: Equatable {
    /// `environment`: the one this connection's states are rendered in from now on (default when absent);
    /// `delta`: later states of the story in the default environment come as deltas.
    case subscribe(story: String, environment: ViewEnvironment, delta: Bool, ref: String?)
    case unsubscribe(story: String, ref: String?)
    /// `undoGroup` (here and in `patch`): a run of typing in one field, one step for undo (`StorySession.prepare`).
    case replace(story: String, props: JSONValue, base: Int?, ref: String?, undoGroup: String?)
    case patch(story: String, patch: JSONPatch, base: Int?, ref: String?, undoGroup: String?)
    case reset(story: String, base: Int?, ref: String?)
    case dispatch(story: String, invocation: CommandInvocation, ref: String?)
    case undo(story: String, base: Int?, ref: String?)
    case redo(story: String, base: Int?, ref: String?)
    case seek(story: String, version: Int, base: Int?, ref: String?)
    case history(story: String, since: Int?, ref: String?)
    case replay(story: String, request: JSONValue, ref: String?)
    case replayStop(story: String, ref: String?)
    /// Who the client is, for presence and attribution.
    case identify(ChangeAuthor)
    /// The field the client is editing on a story; nil clears it.
    case focus(story: String, path: JSONPointer?, ref: String?)
    /// The renderer protocol (`renderer`, `show`, `rendered`).
    case renderer(RendererMessage)

    /// Why a frame is not a message, with what could be read of it to address the error.
    struct Failure: Error, Equatable {
        let error: APIError
        let ref: String?
        let story: String?
    }

    /// Parses one text frame.
    static func parse(_ bytes: [UInt8], maxDepth: Int) -> Result<ClientMessage, Failure> {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes, maxDepth: maxDepth)
        } catch {
            return .failure(Failure(error: APIError(.badJSON, "not JSON: \(error)"), ref: nil, story: nil))
        }
        guard case .object(let fields) = json else {
            return .failure(Failure(error: APIError(.badMessage, "a message is a JSON object, found \(json.kindDescription)"), ref: nil, story: nil))
        }
        let ref = fields["ref"]?.stringValue
        let story = fields["story"]?.stringValue
        do {
            return .success(try parse(fields))
        } catch {
            return .failure(Failure(error: error, ref: ref, story: story))
        }
    }

    private static func parse(_ fields: [String: JSONValue]) throws(APIError) -> ClientMessage {
        let reader = FieldReader(fields: fields)
        guard let type = fields["type"] else { throw APIError(.badMessage, "missing field type", path: "/type") }
        guard case .string(let name) = type else { throw APIError(.badMessage, "type must be a string", path: "/type") }
        let ref = try reader.optionalString("ref")
        switch name {
        case "subscribe":
            return .subscribe(story: try reader.string("story"), environment: try reader.environment(),
                              delta: try reader.optionalBool("delta") ?? false, ref: ref)
        case "unsubscribe": return .unsubscribe(story: try reader.string("story"), ref: ref)
        case "replace":
            let story = try reader.string("story")
            guard let props = fields["props"] else { throw APIError(.badMessage, "missing field props", path: "/props") }
            return .replace(story: story, props: props, base: try reader.optionalVersion("base"), ref: ref, undoGroup: try undoGroup(reader))
        case "patch":
            let story = try reader.string("story")
            return .patch(story: story, patch: try reader.patch("patch"), base: try reader.optionalVersion("base"), ref: ref, undoGroup: try undoGroup(reader))
        case "reset":
            return .reset(story: try reader.string("story"), base: try reader.optionalVersion("base"), ref: ref)
        case "dispatch":
            let story = try reader.string("story")
            let command = Command(try reader.string("command"))
            return .dispatch(story: story, invocation: CommandInvocation(command, payload: fields["payload"]), ref: ref)
        case "undo": return .undo(story: try reader.string("story"), base: try reader.optionalVersion("base"), ref: ref)
        case "redo": return .redo(story: try reader.string("story"), base: try reader.optionalVersion("base"), ref: ref)
        case "seek":
            let story = try reader.string("story")
            guard let version = try reader.optionalVersion("version") else { throw APIError(.badMessage, "missing field version", path: "/version") }
            return .seek(story: story, version: version, base: try reader.optionalVersion("base"), ref: ref)
        case "history":
            return .history(story: try reader.string("story"), since: try reader.optionalVersion("since"), ref: ref)
        case "replay":
            return .replay(story: try reader.string("story"), request: .object(fields), ref: ref)
        case "replay-stop":
            return .replayStop(story: try reader.string("story"), ref: ref)
        case "identify":
            return .identify(try identity(reader))
        case "focus":
            guard fields["path"] != nil else { throw APIError(.badMessage, "missing field path (null clears the focus)", path: "/path") }
            // The syntax only: a pointer to nothing yet is kept (the field may come with the next state).
            var path: JSONPointer?
            if let text = try reader.optionalString("path") {
                do {
                    path = try JSONPointer(parsing: text)
                } catch {
                    throw APIError(.badMessage, "path must be a JSON Pointer (\"/name\") or null: \(error.reason)", path: "/path")
                }
            }
            return .focus(story: try reader.string("story"), path: path, ref: ref)
        default:
            if let message = try RendererMessage.parse(type: name, reader) { return .renderer(message) }
            throw APIError(.unknownType, "unknown message type '\(name)'", path: "/type")
        }
    }

    /// An edit's optional `undoGroup`: a name of 1 to 64 UTF-16 code units (a JavaScript string's length).
    private static func undoGroup(_ reader: FieldReader) throws(APIError) -> String? {
        guard let name = try reader.optionalString("undoGroup") else { return nil }
        guard (1...64).contains(name.utf16.count) else {
            throw APIError(.badMessage, "undoGroup has 1 to 64 UTF-16 code units, found \(name.utf16.count)", path: "/undoGroup")
        }
        return name
    }

    /// `identify`: a name of 1 to 60 characters and a kind.
    private static func identity(_ reader: FieldReader) throws(APIError) -> ChangeAuthor {
        let name = try reader.string("name").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(name.count), !name.contains(where: \.isNewline) else {
            throw APIError(.badMessage, "name has 1 to 60 characters", path: "/name")
        }
        let kindName = try reader.string("kind")
        guard let kind = ChangeAuthor.Kind(rawValue: kindName) else {
            let allowed = ChangeAuthor.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(.badMessage, "kind must be one of \(allowed), found '\(kindName)'", path: "/kind")
        }
        return ChangeAuthor(name: name, kind: kind)
    }
}

/// Reads typed fields of a message object, naming the field in every error.
struct FieldReader {
    let fields: [String: JSONValue]

    func string(_ name: String) throws(APIError) -> String {
        guard let value = fields[name] else { throw APIError(.badMessage, "missing field \(name)", path: "/\(name)") }
        guard case .string(let string) = value else {
            throw APIError(.badMessage, "\(name) must be a string, found \(value.kindDescription)", path: "/\(name)")
        }
        return string
    }

    func optionalString(_ name: String) throws(APIError) -> String? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .string(let string) = value else {
            throw APIError(.badMessage, "\(name) must be a string, found \(value.kindDescription)", path: "/\(name)")
        }
        return string
    }

    /// The optional `environment` object: the query parameters' names, string values (`width` may be a number).
    func environment() throws(APIError) -> ViewEnvironment {
        guard let value = fields["environment"], value != .null else { return .standard }
        guard case .object(let members) = value else {
            throw APIError(.badEnvironment, "environment must be an object, found \(value.kindDescription)", path: "/environment")
        }
        var parameters: [String: String] = [:]
        for (name, member) in members {
            guard ViewEnvironment.parameterNames.contains(name) else {
                throw APIError(.badEnvironment, "unknown environment member '\(name)'; allowed: \(ViewEnvironment.parameterNames.joined(separator: ", "))",
                                path: "/environment/\(name)")
            }
            if let string = member.stringValue {
                parameters[name] = string
            } else if let integer = member.integerValue {
                parameters[name] = String(integer)
            } else {
                throw APIError(.badEnvironment, "environment \(name) must be a string, found \(member.kindDescription)", path: "/environment/\(name)")
            }
        }
        do throws(EnvironmentError) {
            return try ViewEnvironment(parameters: parameters)
        } catch {
            throw APIError(.badEnvironment, error.message, path: "/environment" + error.path)
        }
    }

    /// A boolean member, or nil when absent; `null` is not a boolean and is refused.
    func optionalBool(_ name: String) throws(APIError) -> Bool? {
        guard let value = fields[name] else { return nil }
        guard case .bool(let bool) = value else {
            throw APIError(.badMessage, "\(name) must be true or false, found \(value.kindDescription)", path: "/\(name)")
        }
        return bool
    }

    /// An integer member, or nil when absent; `null` is not an integer and is refused.
    func optionalInt(_ name: String) throws(APIError) -> Int? {
        guard let value = fields[name] else { return nil }
        guard let integer = value.integerValue, let result = Int(exactly: integer) else {
            throw APIError(.badMessage, "\(name) must be an integer, found \(Self.describe(value))", path: "/\(name)")
        }
        return result
    }

    /// A JSON Patch member: an array of RFC 6902 operations (else `bad-message` at the member); an
    /// operation that is not one is `invalid-patch` at its path.
    func patch(_ name: String) throws(APIError) -> JSONPatch {
        guard let operations = fields[name] else { throw APIError(.badMessage, "missing field \(name)", path: "/\(name)") }
        guard case .array = operations else {
            throw APIError(.badMessage, "\(name) must be an array of operations, found \(operations.kindDescription)", path: "/\(name)")
        }
        do throws(JSONPatchError) {
            return try JSONPatch(json: operations)
        } catch {
            throw APIError(error)
        }
    }

    /// A version number member (`base`, `since`, a seek's `version`): a whole number from 0, as HTTP's
    /// `?base=` and `?since=` take; nil when absent.
    func optionalVersion(_ name: String) throws(APIError) -> Int? {
        guard let value = try optionalInt(name) else { return nil }
        guard value >= 0 else {
            throw APIError(.badMessage, "\(name) must be a version number (a whole number from 0), found \(value)", path: "/\(name)")
        }
        return value
    }

    /// A number as it was sent ("1.5", "1e400"), anything else by its kind, for error messages.
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .integer, .double, .exactNumber: value.serialized()
        default: value.kindDescription
        }
    }
}
