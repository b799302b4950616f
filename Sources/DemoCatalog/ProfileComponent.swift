public import PropsCatalog

/// "Profile/User Profile": the contract fixture. Encodes as `{"name", "email", "avatarURL"}`.
public struct UserProfile: Codable, Sendable, Equatable {
    public var name: String
    public var email: String
    public var avatarURL: String?

    public init(name: String, email: String, avatarURL: String?) {
        self.name = name
        self.email = email
        self.avatarURL = avatarURL
    }
}

public enum Profile {
    public static let component = Component<UserProfile>("Profile/User Profile") { profile in
        VStack {
            if let avatarURL = profile.avatarURL {
                Image(url: avatarURL, alt: "Avatar of \(profile.name)")
            }
            Heading(profile.name, level: 2)
            Text(profile.email)
        }
    }
    .variant("Default", UserProfile(name: "Ada Lovelace", email: "ada@example.com", avatarURL: "https://example.com/ada.png"))
    .variant("No avatar", UserProfile(name: "Grace Hopper", email: "grace@example.com", avatarURL: nil))
    .variant("Long name", UserProfile(
        name: "Maria Salomea Skłodowska-Curie, twice Nobel laureate, of Warsaw and Paris, " + String(repeating: "and more ", count: 20),
        email: "marie.curie.with.a.very.long.address@radium-institute.example.org", avatarURL: nil))
    .variant("Hostile", UserProfile(name: "<script>alert(1)</script>", email: "\"><img src=x onerror=alert(1)>", avatarURL: "javascript:alert(1)"))
}
