extension ViewEnvironment {
    /// The query parameter names, in the order URLs and golden names list them.
    package static let parameterNames = ["colorScheme", "dynamicType", "locale", "layoutDirection", "width"]

    /// The environment named by query parameters (or a WebSocket `environment` object's strings);
    /// missing ones keep their defaults, other names are ignored. Throws what is allowed when a
    /// value is not (the contract's `bad-environment`).
    package init(parameters: [String: String]) throws(EnvironmentError) {
        self.init()
        if let value = parameters["colorScheme"] {
            guard let scheme = ColorScheme(rawValue: value) else { throw Self.bad("colorScheme", value, allowed: ColorScheme.allCases.map(\.rawValue)) }
            colorScheme = scheme
        }
        if let value = parameters["dynamicType"] {
            guard let size = DynamicTypeSize(rawValue: value) else { throw Self.bad("dynamicType", value, allowed: DynamicTypeSize.allCases.map(\.rawValue)) }
            dynamicType = size
        }
        if let value = parameters["locale"] {
            guard let tag = Self.canonicalLanguageTag(value) else {
                throw EnvironmentError("locale '\(value)' is not a BCP 47 language tag; allowed: tags like en-US, de-DE, fr, ar-EG, zh-Hant-TW", path: "/locale")
            }
            locale = tag
        }
        if let value = parameters["layoutDirection"] {
            guard let direction = LayoutDirection(rawValue: value) else { throw Self.bad("layoutDirection", value, allowed: LayoutDirection.allCases.map(\.rawValue)) }
            explicitLayoutDirection = direction
        }
        if let value = parameters["width"] {
            guard let points = Int(value), (1...10_000).contains(points), !value.hasPrefix("+") else {
                throw EnvironmentError("width '\(value)' is not allowed; allowed: a whole number of points from 1 to 10000", path: "/width")
            }
            width = points
        }
    }

    private static func bad(_ name: String, _ value: String, allowed: [String]) -> EnvironmentError {
        EnvironmentError("\(name) '\(value)' is not allowed; allowed: \(allowed.joined(separator: ", "))", path: "/\(name)")
    }

    /// The parameters that differ from the default, in `parameterNames` order: what a URL carries.
    package var parameters: [(name: String, value: String)] {
        var result: [(String, String)] = []
        if colorScheme != .light { result.append(("colorScheme", colorScheme.rawValue)) }
        if dynamicType != .large { result.append(("dynamicType", dynamicType.rawValue)) }
        if locale != "en-US" { result.append(("locale", locale)) }
        if let explicitLayoutDirection { result.append(("layoutDirection", explicitLayoutDirection.rawValue)) }
        if let width { result.append(("width", String(width))) }
        return result
    }

    /// A short name of the non-default values for file names: `dark`, `accessibility3`, `de-DE+rtl`,
    /// `w320`; empty for the default environment.
    package var key: String {
        var parts: [String] = []
        if colorScheme != .light { parts.append(colorScheme.rawValue) }
        if dynamicType != .large { parts.append(dynamicType.rawValue) }
        if locale != "en-US" { parts.append(locale) }
        if let explicitLayoutDirection { parts.append(explicitLayoutDirection.rawValue) }
        if let width { parts.append("w\(width)") }
        return parts.joined(separator: "+")
    }

    /// `tag` in canonical case (`de-DE`, `zh-Hant-TW`) when it is a well-formed BCP 47 language tag
    /// (language, optional script, region and variants), nil otherwise.
    package static func canonicalLanguageTag(_ tag: String) -> String? {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard let language = subtags.first, (2...3).contains(language.count) || (5...8).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }), subtags.count <= 6 else { return nil }
        var result = [language.lowercased()]
        var expectScript = true
        var expectRegion = true
        for subtag in subtags.dropFirst() {
            guard (1...8).contains(subtag.count), subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            if expectScript, subtag.count == 4, subtag.allSatisfy(\.isLetter) {
                result.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
                expectScript = false
            } else if expectRegion, (subtag.count == 2 && subtag.allSatisfy(\.isLetter)) || (subtag.count == 3 && subtag.allSatisfy(\.isNumber)) {
                result.append(subtag.uppercased())
                expectScript = false
                expectRegion = false
            } else if (5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first!.isNumber) {
                result.append(subtag.lowercased())
                expectScript = false
                expectRegion = false
            } else {
                return nil
            }
        }
        return result.joined(separator: "-")
    }
}
