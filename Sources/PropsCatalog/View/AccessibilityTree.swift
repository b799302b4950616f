/// Reads a view tree the way assistive technology does: the announced elements in reading order,
/// each with its role, accessible name, value, states and node path.
///
/// Node paths are the child indices from the root (`/1/0/3`); accessibility modifiers do not add a
/// level, a section's title and a component's title are not nodes. The browser UI walks the preview's
/// DOM by the same rule, so a path found here highlights its element there.
package enum AccessibilityTree {
    /// The announced elements of `nodes`, in reading order; hidden nodes are left out.
    package static func elements(_ nodes: [ViewNode]) -> [AccessibilityElement] {
        var walker = Walker()
        for (index, node) in nodes.enumerated() {
            walker.visit(node, path: "/\(index)", depth: 0, container: "/", info: nil)
        }
        return walker.elements
    }

    private struct Walker {
        var elements: [AccessibilityElement] = []

        mutating func visit(_ node: ViewNode, path: String, depth: Int, container: String, info: AccessibilityInfo?) {
            func element(_ role: AccessibilityElement.Role, name: String, value: String? = nil, states: [String] = [],
                         level: Int? = nil, command: Command? = nil) -> AccessibilityElement {
                AccessibilityElement(role: role, name: info?.label ?? name, value: info?.value ?? value, states: states,
                                     level: level, hint: info?.hint, depth: depth, node: path, command: command, container: container)
            }
            func children(_ nodes: [ViewNode], depth: Int, container: String) {
                for (index, child) in nodes.enumerated() {
                    visit(child, path: "\(path)/\(index)", depth: depth, container: container, info: nil)
                }
            }
            if info?.isHidden == true { return }
            switch node {
            case .accessible(let inner, let wrapped):
                visit(wrapped, path: path, depth: depth, container: container, info: (info ?? AccessibilityInfo()).merging(inner))
            case .stack(_, let nodes):
                children(nodes, depth: depth, container: container)
            case .text(let text), .badge(let text, _):
                if let level = info?.headingLevel {
                    elements.append(element(.heading, name: text, level: level))
                } else {
                    elements.append(element(.text, name: text))
                }
            case .heading(let text, let level):
                elements.append(element(.heading, name: text, level: info?.headingLevel ?? level))
            case .button(let label, let command):
                elements.append(element(.button, name: label, command: command))
            case .iconButton(_, let command):
                elements.append(element(.button, name: "", command: command))
            case .textField(let label, let value, let isSecure, let command):
                var field = element(.textbox, name: label, value: isSecure ? nil : value, states: isSecure ? ["secure"] : [], command: command)
                field.isSecure = isSecure
                elements.append(field)
            case .toggle(let label, let isOn, let command):
                elements.append(element(.switch, name: label, states: [isOn ? "on" : "off"], command: command))
            case .list(let items):
                elements.append(element(.list, name: "", states: ["\(items.count) \(items.count == 1 ? "item" : "items")"]))
                children(items, depth: depth + 1, container: path)
            case .listItem(let isSelected, let command, let nodes):
                guard let command else {
                    children(nodes, depth: depth, container: path)
                    return
                }
                // A row that does something is one button named by its content; controls inside stay their own.
                var content = Walker()
                var controls = Walker()
                for (index, child) in nodes.enumerated() {
                    if child.isControl {
                        controls.visit(child, path: "\(path)/\(index)", depth: depth + 1, container: path, info: nil)
                    } else {
                        content.visit(child, path: "\(path)/\(index)", depth: depth + 1, container: path, info: nil)
                    }
                }
                let name = content.elements.map(\.name).filter { !$0.isEmpty }.joined(separator: ", ")
                elements.append(element(.button, name: name, states: isSelected ? ["selected"] : [], command: command))
                elements += controls.elements
            case .image(_, let alt):
                var image = element(.image, name: alt)
                image.isMissingAlt = info?.label == nil && alt.isEmpty
                elements.append(image)
            case .progress(let label, let fraction):
                if let fraction {
                    elements.append(element(.progress, name: label, value: "\(Int((fraction * 100).rounded()))%"))
                } else {
                    elements.append(element(.progress, name: label, states: ["indeterminate"]))
                }
            case .section(let title, let nodes):
                elements.append(element(.heading, name: title, level: 3))
                children(nodes, depth: depth, container: path)
            case .divider:
                break
            case .component(_, let nodes):
                children(nodes, depth: depth, container: path)
            }
        }
    }
}

extension ViewNode {
    /// Whether the node is a control of its own (a button, field or switch), looking through modifiers.
    var isControl: Bool {
        switch self {
        case .button, .iconButton, .textField, .toggle: true
        case .accessible(_, let wrapped): wrapped.isControl
        default: false
        }
    }
}

extension ViewNode {
    /// Whether `role="heading"` may go on the node's element (text-like elements only).
    var acceptsHeadingRole: Bool {
        switch self {
        case .text, .badge: true
        default: false
        }
    }
}
