#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a configured host means for the libwebsockets listener: the interface or address to bind
/// (`nil`: every address) and whether the socket is IPv6.
///
/// libwebsockets binds an IPv6 socket unless told otherwise, and an IPv6 socket bound to "127.0.0.1"
/// ends up listening on every interface. So IPv4 literals always come with IPv6 disabled.
struct ListenAddress: Equatable {
    var interface: String?
    var ipv6: Bool

    init(interface: String?, ipv6: Bool) {
        self.interface = interface
        self.ipv6 = ipv6
    }

    init(host: String) {
        switch host {
        case "localhost":
            self.init(interface: "127.0.0.1", ipv6: false)
        case "0.0.0.0":
            self.init(interface: nil, ipv6: false)
        case "", "::":
            self.init(interface: nil, ipv6: true)
        case _ where Self.isIPv4Literal(host):
            self.init(interface: host, ipv6: false)
        default:
            self.init(interface: host, ipv6: true)
        }
    }

    private static func isIPv4Literal(_ host: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }
}
