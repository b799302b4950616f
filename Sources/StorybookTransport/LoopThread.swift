import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain OS thread (not a Swift task): the transport's loop blocks in `lws_service`, which would
/// starve the cooperative thread pool if it ran there.
///
/// The thread starts with every signal blocked, so that signals sent to the process (SIGINT, SIGTERM)
/// reach the application's threads. Otherwise the kernel may pick this thread for them, and when the
/// application listens through a Dispatch signal source (signal disposition SIG_IGN, the signal
/// blocked only where Dispatch blocked it) the signal would be silently lost.
struct LoopThread: @unchecked Sendable {
    // @unchecked: `pthread_t` is an opaque thread id (an integer on Linux, a pointer on Darwin). Sharing
    // the id between threads is how `pthread_join` is meant to be used; nothing is dereferenced.
    private let handle: pthread_t

    private final class Body {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    private init(handle: pthread_t) {
        self.handle = handle
    }

    /// Starts a thread running `body`. Linux shows the first 15 bytes of `name` (in `top -H`, `ps -L`).
    static func spawn(name: String, _ body: @escaping @Sendable () -> Void) throws(TransportError) -> LoopThread {
        // A new thread inherits the creator's signal mask: block everything around the creation.
        var everySignal = sigset_t()
        var callerMask = sigset_t()
        sigfillset(&everySignal)
        pthread_sigmask(SIG_BLOCK, &everySignal, &callerMask)
        defer { pthread_sigmask(SIG_SETMASK, &callerMask, nil) }

        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        #if canImport(Glibc)
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { raw in
            LoopThread.enter(raw)
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .threadSpawnFailed(code: result)
        }
        return LoopThread(handle: handle)
        #else
        var handle: pthread_t?
        let result = pthread_create(&handle, nil, { raw in
            LoopThread.enter(raw)
            return nil
        }, context)
        guard result == 0, let handle else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .threadSpawnFailed(code: result)
        }
        return LoopThread(handle: handle)
        #endif
    }

    private static func enter(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
        sb_set_current_thread_name(body.name)
        body.run()
    }

    /// Whether the caller is running on this thread.
    var isCurrent: Bool {
        pthread_equal(handle, pthread_self()) != 0
    }

    /// Waits for the thread to finish. Call once.
    func join() {
        _ = pthread_join(handle, nil)
    }

    /// Lets the thread finish on its own (used when joining would deadlock). Call at most once, instead
    /// of `join()`.
    func detach() {
        _ = pthread_detach(handle)
    }
}
