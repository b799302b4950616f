import CLibWebSockets

extension ServiceLoop {
    /// Creates the lws context and the listening vhost; returns the context and the bound port.
    func createContext() throws(TransportError) -> (OpaquePointer, Int) {
        sb_lws_set_log_level(LLL_ERR)
        let address = ListenAddress(host: configuration.host)

        var info = lws_context_creation_info()
        info.options = UInt64(
            LWS_SERVER_OPTION_EXPLICIT_VHOSTS
                | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND
                | LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG
                | (address.ipv6 ? 0 : LWS_SERVER_OPTION_DISABLE_IPV6)
        )
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.server_string = resources.cString("storybook")
        info.max_http_header_data = configuration.lwsHeaderRoom
        // What one read of a socket takes at most (raw WebSocket connections read into this buffer).
        info.pt_serv_buf_size = 32 * 1024
        let context = try LWSCall.check("lws_create_context", lws_create_context(&info))
        self.context = context

        info.vhost_name = resources.cString("storybook")
        info.port = Int32(configuration.port)
        info.iface = address.interface.map(resources.cString)
        info.protocols = UnsafePointer(resources.protocols)
        // Requests with a method lws does not know become raw sockets of our protocol (ServiceLoop+Raw).
        info.listen_accept_role = resources.cString("raw-skt")
        info.listen_accept_protocol = UnsafePointer(resources.protocols[0].name)
        // lws tells a failed bind in lines of its own (an fd, an errno) before the error below says
        // it once, in the user's terms: its log is off while it binds.
        sb_lws_set_log_level(0)
        let created = lws_create_vhost(context, &info)
        sb_lws_set_log_level(LLL_ERR)
        guard let vhost = created else {
            throw .cannotListen(host: configuration.host, port: configuration.port)
        }
        self.vhost = vhost
        scheduleHousekeeping()
        return (context, Int(lws_get_vhost_listen_port(vhost)))
    }

    /// Runs lws until the lifecycle says stop.
    func serve() {
        guard let context else { return }
        while lifecycle != .finished {
            if lws_service(context, 0) < 0 {
                logger.error("lws_service failed; stopping the transport")
                lifecycle = .finished
            }
        }
    }

    /// Destroys the context (lws closes what is still open, with callbacks) and forgets every record.
    func destroyContext() {
        guard let context else { return }
        housekeepingTimer.cancel()
        lws_context_destroy(context)
        self.context = nil
        self.vhost = nil
        connections = ConnectionRegistry()
    }

    /// Runs housekeeping after one housekeeping interval.
    func scheduleHousekeeping() {
        guard let context else { return }
        housekeepingTimer.schedule(on: context, after: housekeepingInterval)
    }
}
