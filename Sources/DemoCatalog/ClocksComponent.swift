public import Foundation
public import PropsCatalog

/// "Clocks/Split View": a master list of time zones beside the selected one, with view state.
public struct ClocksSplitViewProps: Codable, Sendable, Equatable {
    public var timezones: [TimeZoneItem]
    public var master: MasterState
    public var detail: UUID?
    public var search: SearchState?
}

public struct TimeZoneItem: Codable, Sendable, Equatable {
    public var name: String
    public var identifier: String
    public var uuid: UUID
}

/// View state of the master list.
public struct MasterState: Codable, Sendable, Equatable {
    public var scrollOffset: Double
    public var isEditing: Bool
}

/// The search sheet and what was typed into it.
public struct SearchState: Codable, Sendable, Equatable {
    public var text: String
}

public enum Clocks {
    static let zones = [
        TimeZoneItem(name: "Berlin", identifier: "Europe/Berlin", uuid: UUID(uuidString: "0B8E1C3A-2D4F-4E6A-8B9C-1D2E3F405162")!),
        TimeZoneItem(name: "New York", identifier: "America/New_York", uuid: UUID(uuidString: "1C9F2D4B-3E5A-4F7B-9CAD-2E3F40516273")!),
        TimeZoneItem(name: "Tokyo", identifier: "Asia/Tokyo", uuid: UUID(uuidString: "2DA03E5C-4F6B-4A8C-ADBE-3F4051627384")!),
    ]
    static let melbourne = TimeZoneItem(name: "Melbourne", identifier: "Australia/Melbourne", uuid: UUID(uuidString: "3EB14F6D-5A7C-4B9D-BECF-405162738495")!)

    public static let component = Component<ClocksSplitViewProps>("Clocks/Split View") { props in
        HStack {
            Section("Clocks") {
                HStack {
                    Toggle("Edit", isOn: props.master.isEditing, command: "edit.toggle")
                    Button("Add", command: "search.open")
                }
                Text("Scrolled to \(Int(props.master.scrollOffset)) pt")
                if props.timezones.isEmpty {
                    Text("No clocks yet.")
                } else {
                    List {
                        ForEach(props.timezones) { zone in
                            ListItem(isSelected: zone.uuid == props.detail, command: Command("show:\(zone.uuid.uuidString)")) {
                                Text(zone.name)
                                if props.master.isEditing {
                                    Button("Delete", command: Command("delete:\(zone.uuid.uuidString)"))
                                }
                            }
                        }
                    }
                }
            }
            if let selected = props.timezones.first(where: { $0.uuid == props.detail }) {
                Section(selected.name) {
                    Text(selected.identifier)
                }
            } else {
                Text("Select a clock.")
            }
            if let search = props.search {
                Section("Add a clock") {
                    TextField("Search", value: search.text, command: "search.update")
                    Button("Done", command: "search.close")
                }
            }
        }
    }
    .variant("Default", ClocksSplitViewProps(timezones: zones, master: MasterState(scrollOffset: 0, isEditing: false), detail: nil, search: nil))
    .variant("Detail", ClocksSplitViewProps(timezones: zones, master: MasterState(scrollOffset: 120, isEditing: false), detail: zones[2].uuid, search: nil))
    .variant("Editing", ClocksSplitViewProps(timezones: zones, master: MasterState(scrollOffset: 0, isEditing: true), detail: nil, search: nil))
    .variant("Searching", ClocksSplitViewProps(timezones: zones + [melbourne], master: MasterState(scrollOffset: 0, isEditing: false), detail: nil, search: SearchState(text: "Melbourne")))
    .variant("Empty", ClocksSplitViewProps(timezones: [], master: MasterState(scrollOffset: 0, isEditing: false), detail: nil, search: nil))
    .suggesting(suggest)

    static func suggest(_ props: ClocksSplitViewProps, _ invocation: CommandInvocation) -> ClocksSplitViewProps? {
        var next = props
        let name = invocation.command.name
        switch name {
        case "edit.toggle":
            next.master.isEditing.toggle()
        case "search.open":
            next.search = SearchState(text: "")
        case "search.close":
            next.search = nil
        case "search.update":
            guard let text = invocation.text else { return nil }
            next.search = SearchState(text: text)
        case _ where name.hasPrefix("show:"):
            guard let zone = props.timezones.first(where: { "show:\($0.uuid.uuidString)" == name }) else { return nil }
            next.detail = zone.uuid
        case _ where name.hasPrefix("delete:"):
            next.timezones.removeAll { "delete:\($0.uuid.uuidString)" == name }
            if let detail = next.detail, !next.timezones.contains(where: { $0.uuid == detail }) { next.detail = nil }
        default:
            return nil
        }
        return next
    }
}
