/// Where each node's output lies in one rendered projection (text or HTML): what lets the next
/// render copy the output of the nodes that did not change instead of rendering them again.
///
/// One entry per node, by position: the roots in order, then each node's children by index (an
/// `.accessible` node has one child, the node it wraps). Offsets count UTF-8 bytes and an entry's
/// `start` is relative to its parent's, so the entries of an unchanged subtree are shared as they
/// are wherever its output moves. A few words per node: linear in the view, never a copy of the text.
/// A node whose output is small (`ProjectionWriter.childlessEntryLimit`) has no children's entries:
/// it is copied whole or rendered again whole.
struct RenderMemo: Sendable {
    /// The output of one node and of its children.
    struct Entry: Sendable {
        /// The first byte of the node's output, from its parent's first byte (from the output's start for a root).
        var start: Int
        /// The node's output in bytes, its children's included.
        var length: Int
        /// The children's entries, by child index; none for a small node.
        var children: [Entry]
    }

    /// The roots' entries, with offsets from the start of the output.
    let roots: [Entry]
    /// How many nodes were rendered; the others' output was copied from the previous render.
    let rendered: Int
    /// How many subtrees had their output copied from the previous render (a copied subtree counts once).
    let reused: Int
    /// The bytes at the start and at the end of the output that are the previous render's, where
    /// they were in it: where the splice between the two outputs starts looking (`TextSplice`).
    let sharedEnds: TextSplice.SharedEnds
}
