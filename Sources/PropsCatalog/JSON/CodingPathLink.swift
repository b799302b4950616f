/// A coding path as links to the parent, so that going one level down costs no array copy; the
/// `[any CodingKey]` form is built only when asked for (errors, `codingPath`).
indirect enum CodingPathLink {
    case root
    case key(any CodingKey, parent: CodingPathLink)
    case index(Int, parent: CodingPathLink)

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = self
        while true {
            switch link {
            case .root: return keys.reversed()
            case .key(let key, let parent): keys.append(key); link = parent
            case .index(let index, let parent): keys.append(IndexKey(index)); link = parent
            }
        }
    }
}
