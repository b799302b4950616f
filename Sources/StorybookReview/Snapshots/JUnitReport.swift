import Foundation

/// A ``SnapshotReport`` as JUnit XML, the report format CI systems display: one `testcase` per
/// story (`classname` the component id, `name` the story id), a `failure` with the unified diff in
/// CDATA for each story that needs attention. No timestamps or durations: equal reports give equal bytes.
package enum JUnitReport {
    package static let suiteName = "storybook snapshots"

    package static func xml(_ report: SnapshotReport) -> String {
        let failures = report.stories.filter(\.isFailure).count + report.audits.filter(\.isFailure).count
        let tests = report.stories.count + report.audits.count
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(suiteName)\" \(counts)>\n"
        out += "  <testsuite name=\"\(suiteName)\" \(counts)>\n"
        for story in report.stories {
            let opening = "    <testcase classname=\"\(attribute(story.componentID))\" name=\"\(attribute(story.id))\""
            guard story.isFailure else {
                out += opening + "/>\n"
                continue
            }
            out += opening + ">\n"
            let message = story.headline + (story.files.isEmpty ? "" : " [\(story.files.joined(separator: ", "))]")
            out += "      <failure type=\"\(story.status.rawValue)\" message=\"\(attribute(message))\">"
            out += cdata(story.diff.isEmpty ? story.headline + "\n" : story.diff)
            out += "</failure>\n    </testcase>\n"
        }
        // One more test case per story with accessibility findings: a failure when one is an error.
        for audit in report.audits {
            let opening = "    <testcase classname=\"\(attribute(audit.componentID))\" name=\"\(attribute(audit.id + " accessibility"))\""
            let lines = audit.lines.joined(separator: "\n") + "\n"
            guard audit.isFailure else {
                out += opening + ">\n      <system-out>" + cdata(lines) + "</system-out>\n    </testcase>\n"
                continue
            }
            let message = "\(audit.errors.count) accessibility \(audit.errors.count == 1 ? "error" : "errors") in \(audit.id)"
            out += opening + ">\n      <failure type=\"accessibility\" message=\"\(attribute(message))\">" + cdata(lines) + "</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// `text` inside `<![CDATA[...]]>`; a `]]>` in it is split across two sections.
    package static func cdata(_ text: String) -> String {
        "<![CDATA[" + characters(text).replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
    }

    /// `text` escaped for a double-quoted attribute value; line breaks and tabs as character references.
    package static func attribute(_ text: String) -> String {
        var out = ""
        for scalar in characters(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` with every character XML 1.0 cannot hold at all (control characters other than tab,
    /// line feed and carriage return; U+FFFE, U+FFFF) replaced by U+FFFD.
    package static func characters(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || value >= 0x10000
            out.append(allowed ? scalar : "\u{FFFD}")
        }
        return String(out)
    }
}
