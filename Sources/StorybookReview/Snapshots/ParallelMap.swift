import Dispatch
import Synchronization

/// Runs `transform` over every element on all cores, in chunks, keeping the order of the results;
/// the first error thrown stops the remaining chunks and is rethrown.
package enum ParallelMap {
    package static func map<Element: Sendable, Result: Sendable>(
        _ elements: [Element], chunkSize: Int = 64,
        _ transform: @Sendable (Element) throws(SnapshotError) -> Result
    ) throws(SnapshotError) -> [Result] {
        let chunks = (elements.count + chunkSize - 1) / chunkSize
        let results = Mutex<[[Result]?]>(Array(repeating: nil, count: chunks))
        let failure = Mutex<SnapshotError?>(nil)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            guard failure.withLock({ $0 == nil }) else { return }
            let range = (chunk * chunkSize)..<min(elements.count, (chunk + 1) * chunkSize)
            var local: [Result] = []
            local.reserveCapacity(range.count)
            do throws(SnapshotError) {
                for index in range { local.append(try transform(elements[index])) }
            } catch {
                failure.withLock { $0 = $0 ?? error }
                return
            }
            results.withLock { $0[chunk] = local }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0.flatMap { $0 ?? [] } }
    }
}
