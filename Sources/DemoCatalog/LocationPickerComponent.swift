public import PropsCatalog

/// "Maps/Location Picker": pick one of the places found for a query.
public struct LocationPickerProps: Codable, Sendable, Equatable {
    public var query: String
    public var status: SearchStatus
    public var locations: [Location]
    public var indicatorColor: IndicatorColor
}

/// Where the search for locations stands.
public enum SearchStatus: Codable, Sendable, Equatable {
    case idle
    case loading(query: String)
    case failed(message: String)
}

/// One place, with the command that selects it.
public struct Location: Codable, Sendable, Equatable {
    public var name: String
    public var coordinate: Coordinate
    public var isSelected: Bool
    public var select: Command

    public init(_ name: String, _ latitude: Double, _ longitude: Double, isSelected: Bool = false) {
        self.name = name
        self.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        self.isSelected = isSelected
        self.select = Command("select:\(Slug.make(name))")
    }
}

public struct Coordinate: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
}

/// The colour of the map pin.
public enum IndicatorColor: String, Codable, Sendable, CaseIterable {
    case red, green, blue, orange
}

public enum LocationPicker {
    static let longNames = [
        Location("Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch", 53.2245, -4.1979, isSelected: true),
        Location("Taumatawhakatangihangakoauauotamateaturipukakapikimaungahoronukupokaiwhenuakitanatahu", -40.3463, 176.5443),
    ]

    static let boston = [
        Location("Boston Common", 42.3550, -71.0656, isSelected: true),
        Location("Fenway Park", 42.3467, -71.0972),
        Location("Harvard Square", 42.3736, -71.1190),
    ]

    public static let component = Component<LocationPickerProps>("Maps/Location Picker") { props in
        VStack {
            HStack {
                Heading("Locations \(props.query)", level: 2)
                Badge("pin: \(props.indicatorColor.rawValue)", tone: .info)
            }
            switch props.status {
            case .idle:
                if props.locations.isEmpty {
                    Text("No locations found.")
                } else {
                    List {
                        ForEach(props.locations) { location in
                            ListItem(isSelected: location.isSelected, command: location.select) {
                                Text(location.name)
                                Text("\(location.coordinate.latitude), \(location.coordinate.longitude)")
                            }
                        }
                    }
                }
            case .loading(let query):
                Spinner("Searching \(query)…")
            case .failed(let message):
                Badge("Error", tone: .danger)
                Text(message)
            }
        }
    }
    .variant("Default", LocationPickerProps(query: "near Boston", status: .idle, locations: boston, indicatorColor: .red))
    .variant("Loading", LocationPickerProps(query: "near Boston", status: .loading(query: "near Boston"), locations: [], indicatorColor: .blue))
    .variant("Empty", LocationPickerProps(query: "near Atlantis", status: .idle, locations: [], indicatorColor: .green))
    .variant("Error", LocationPickerProps(query: "near Boston", status: .failed(message: "The location service is unreachable."), locations: [], indicatorColor: .orange))
    .variant("Long names", LocationPickerProps(query: "in Wales", status: .idle, locations: longNames, indicatorColor: .red))
    .suggesting(suggest)
    .description("Pick one of the places found for a query. The search is *idle*, *loading* or *failed*; the generated stories cross it with an empty list and with names that do not fit.")
    .permutations(from: "Default", over: "/status", "/locations")
    .values("/locations", named: ["empty": [], "long names": longNames])

    /// Selecting a location marks it, and only it, as selected.
    static func suggest(_ props: LocationPickerProps, _ invocation: CommandInvocation) -> LocationPickerProps? {
        guard invocation.command.name.hasPrefix("select:"),
              props.locations.contains(where: { $0.select == invocation.command }) else { return nil }
        var next = props
        for index in next.locations.indices {
            next.locations[index].isSelected = next.locations[index].select == invocation.command
        }
        return next
    }
}
