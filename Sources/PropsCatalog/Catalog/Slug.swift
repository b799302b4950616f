/// Ids as the contract makes them: lowercase ASCII letters and digits, every other run of
/// characters one `-`, no `-` at either end. "Auth/Login" -> `auth-login`.
package enum Slug {
    package static func make(_ text: String) -> String {
        var result = ""
        var pendingDash = false
        for byte in text.utf8 {
            let lowered = (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
            let isAlphanumeric = (lowered >= 0x61 && lowered <= 0x7A) || (lowered >= 0x30 && lowered <= 0x39)
            if isAlphanumeric {
                if pendingDash && !result.isEmpty { result.append("-") }
                pendingDash = false
                result.unicodeScalars.append(Unicode.Scalar(lowered))
            } else {
                pendingDash = true
            }
        }
        return result
    }

    /// The story id of a variant: `<component-id>--<variant-slug>`.
    package static func storyID(componentID: String, variantName: String) -> String {
        "\(componentID)--\(make(variantName))"
    }
}
