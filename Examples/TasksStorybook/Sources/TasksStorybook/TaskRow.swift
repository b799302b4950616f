import PropsCatalog

/// The props of one row of a to-do list.
struct TaskRowProps: Codable, Sendable, Equatable {
    var title: String
    var isDone: Bool
    var dueDate: String?
}

/// "Tasks/Task Row": a to-do item that can be ticked off.
let taskRow = Component<TaskRowProps>("Tasks/Task Row") { props in
    HStack {
        Toggle(props.title, isOn: props.isDone, command: "toggle")
        if let dueDate = props.dueDate { Text("Due \(dueDate)") }
    }
}
.variant("Open", TaskRowProps(title: "Water the plants", isDone: false, dueDate: "Friday"))
.variant("Done", TaskRowProps(title: "Book the train", isDone: true, dueDate: nil))
.suggesting { props, invocation in
    guard invocation.command.name == "toggle" else { return nil }
    var next = props
    next.isDone.toggle()
    return next
}
