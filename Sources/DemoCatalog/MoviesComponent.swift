public import PropsCatalog

/// One movie of the catalog.
public struct Movie: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var year: Int
    public var rating: Double
    public var synopsis: String
    public var open: Command

    public init(id: String, title: String, year: Int, rating: Double, synopsis: String) {
        self.id = id
        self.title = title
        self.year = year
        self.rating = rating
        self.synopsis = synopsis
        self.open = Command("open:\(id)")
    }
}

/// "Media/Movie List": the child component listing movies.
public struct MovieListProps: Codable, Sendable, Equatable {
    public var movies: [Movie]
    public var isLoading: Bool
    /// The movie last opened from the list, highlighted.
    public var selectedID: String?

    public init(movies: [Movie], isLoading: Bool, selectedID: String? = nil) {
        self.movies = movies
        self.isLoading = isLoading
        self.selectedID = selectedID
    }
}

/// "Media/Movie Detail": the child component showing one movie.
public struct MovieDetailProps: Codable, Sendable, Equatable {
    public var movie: Movie
    public var isFavorite: Bool
    public var back: Command
}

/// A signed-in user.
public struct MovieUser: Codable, Sendable, Equatable {
    public var name: String
}

/// "Media/Movies": the app, with its route as state (`["movies", "v-for-vendetta"]`), an optional
/// signed-in user, and the Props of its two children.
public struct MoviesProps: Codable, Sendable, Equatable {
    public var route: [String]
    public var user: MovieUser?
    public var list: MovieListProps
    public var detail: MovieDetailProps?
}

public enum Movies {
    static let catalog = [
        Movie(id: "v-for-vendetta", title: "V for Vendetta", year: 2005, rating: 8.1,
              synopsis: "In a future British dystopian society, a shadowy freedom fighter plots to overthrow it."),
        Movie(id: "arrival", title: "Arrival", year: 2016, rating: 7.9,
              synopsis: "A linguist works with the military to communicate with alien lifeforms."),
        Movie(id: "spirited-away", title: "Spirited Away", year: 2001, rating: 8.6,
              synopsis: "A ten-year-old girl wanders into a world ruled by gods, witches and spirits."),
    ]

    public static let list = Component<MovieListProps>("Media/Movie List") { props in
        if props.isLoading {
            Spinner("Loading movies…")
        } else if props.movies.isEmpty {
            Text("No movies.")
        } else {
            List {
                ForEach(props.movies) { movie in
                    ListItem(isSelected: movie.id == props.selectedID, command: movie.open) {
                        Text("\(movie.title) (\(movie.year))")
                        Badge("★ \(ViewEnvironment.current.format(movie.rating, fractionDigits: 1))", tone: movie.rating >= 8 ? .success : .neutral)
                    }
                }
            }
        }
    }
    .variant("Default", MovieListProps(movies: catalog, isLoading: false))
    .variant("Loading", MovieListProps(movies: [], isLoading: true))
    .variant("Empty", MovieListProps(movies: [], isLoading: false))
    .suggesting { props, invocation in
        guard let movie = props.movies.first(where: { $0.open == invocation.command }) else { return nil }
        var next = props
        next.selectedID = movie.id
        return next
    }

    /// Reads the environment: the back chevron points the reading direction's way, the rating is
    /// formatted for the locale, and at accessibility text sizes the badges stack vertically.
    public static let detail = Component<MovieDetailProps>("Media/Movie Detail") { props in
        let environment = ViewEnvironment.current
        VStack {
            Button(icon: environment.layoutDirection == .rtl ? "chevron.right" : "chevron.left", command: props.back)
                .accessibilityLabel("Back")
            Heading(props.movie.title, level: 2)
            if environment.dynamicType.isAccessibilitySize {
                VStack { details(props, environment) }
            } else {
                HStack { details(props, environment) }
            }
            Text(props.movie.synopsis)
        }
    }
    .variant("Default", MovieDetailProps(movie: catalog[0], isFavorite: false, back: "back"))
    .variant("Favorite", MovieDetailProps(movie: catalog[1], isFavorite: true, back: "back"))
    .suggesting { props, invocation in
        guard invocation.command.name == "favorite.toggle" else { return nil }
        var next = props
        next.isFavorite.toggle()
        return next
    }

    @ViewBuilder
    static func details(_ props: MovieDetailProps, _ environment: ViewEnvironment) -> [ViewNode] {
        Badge(String(props.movie.year))
        Badge("★ \(environment.format(props.movie.rating, fractionDigits: 1))", tone: .success)
        Toggle("Favorite", isOn: props.isFavorite, command: "favorite.toggle")
    }

    public static let app = Component<MoviesProps>("Media/Movies") { props in
        VStack {
            HStack {
                Heading("Movies")
                if let user = props.user {
                    Text("Signed in as \(user.name)")
                    Button("Sign out", command: "sign-out")
                } else {
                    Button("Sign in", command: "sign-in")
                }
            }
            Text("/" + props.route.joined(separator: "/"))
            switch (props.route.first, props.route.count, props.detail) {
            case ("movies", 1, _):
                Embed(list, props.list)
            case ("movies", 2, let detail?) where detail.movie.id == props.route[1]:
                Embed(Movies.detail, detail)
            default:
                Badge("Not found", tone: .warning)
                Button("All movies", command: "back")
            }
        }
    }
    .variant("List", MoviesProps(route: ["movies"], user: nil, list: MovieListProps(movies: catalog, isLoading: false), detail: nil))
    .variant("Detail", MoviesProps(route: ["movies", "v-for-vendetta"], user: MovieUser(name: "Evey"),
                                   list: MovieListProps(movies: catalog, isLoading: false),
                                   detail: MovieDetailProps(movie: catalog[0], isFavorite: false, back: "back")))
    .variant("Signed in", MoviesProps(route: ["movies"], user: MovieUser(name: "Evey"), list: MovieListProps(movies: catalog, isLoading: false), detail: nil))
    .variant("Not found", MoviesProps(route: ["movies", "no-such-movie"], user: nil, list: MovieListProps(movies: catalog, isLoading: false), detail: nil))
    .suggesting(suggest)

    /// Opening a movie routes to its detail; back routes to the list; sign in and out toggle the user.
    /// The children's own commands reach them first (the list selects, the detail toggles the
    /// favorite: `Embed` writes their suggestions back); this function sees them afterwards.
    static func suggest(_ props: MoviesProps, _ invocation: CommandInvocation) -> MoviesProps? {
        var next = props
        let name = invocation.command.name
        switch name {
        case "back":
            next.route = ["movies"]
            next.detail = nil
        case "sign-in":
            next.user = MovieUser(name: "Evey")
        case "sign-out":
            next.user = nil
        case _ where name.hasPrefix("open:"):
            guard let movie = props.list.movies.first(where: { $0.open == invocation.command }) else { return nil }
            next.route = ["movies", movie.id]
            next.list.selectedID = movie.id
            next.detail = MovieDetailProps(movie: movie, isFavorite: false, back: "back")
        default:
            return nil
        }
        return next
    }
}
