import PropsCatalog

/// The props of a weather card: a place and its forecast, or why there is none.
enum ForecastProps: Codable, Sendable, Equatable {
    case loading(place: String)
    case loaded(place: String, highCelsius: Int, summary: String)
    case failed(message: String)
}

/// "Weather/Forecast Card": three screens of one card.
let forecastCard = Component<ForecastProps>("Weather/Forecast Card") { props in
    switch props {
    case .loading(let place):
        Spinner("Loading the forecast for \(place)…")
    case .loaded(let place, let high, let summary):
        VStack {
            Heading(place)
            Text("\(summary), up to \(high) °C")
        }
    case .failed(let message):
        Text(message)
        Button("Try again", command: "retry")
    }
}
.variant("Loading", .loading(place: "Lisbon"))
.variant("Sunny", .loaded(place: "Lisbon", highCelsius: 24, summary: "Sunny"))
.variant("Offline", .failed(message: "No connection."))
