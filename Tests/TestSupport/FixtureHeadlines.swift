import FoundationEssentials
import HeadlinesCore

/// Headlines as the fixtures under `Fixtures/` must decode to, for the tests that decode them and
/// the tests that store or print them.
public enum FixtureHeadlines {
    /// The ten headlines of `apitube/top-headlines-fl.json`, newest first, as the app must see them.
    public static let apitubeFL: [Headline] = [
        Headline(id: "9112301", title: "Central bank holds rates steady as inflation cools",
                 url: url("https://www.reuters.com/markets/central-bank-holds-rates-2026-11-29/"), source: "reuters.com",
                 publishedAt: date("2026-11-29T22:20:23.000Z"), imageURL: url("https://www.reuters.com/resizer/rates.jpg")),
        Headline(id: "9112288", title: "Storm brings record rainfall to coastal towns",
                 url: url("https://www.bbc.co.uk/news/uk-70112288"), source: "bbc.co.uk",
                 publishedAt: date("2026-11-29T21:58:10.512Z"), imageURL: nil),
        Headline(id: "9112270", title: "Chipmaker unveils 2 nm processor for laptops",
                 url: url("https://www.theverge.com/2026/11/29/chipmaker-2nm"), source: "theverge.com",
                 publishedAt: date("2026-11-29T21:40:00Z"), imageURL: url("https://cdn.vox-cdn.com/chip.jpg")),
        Headline(id: "9112251", title: "Football: late goal settles the derby",
                 url: url("https://www.theguardian.com/football/2026/nov/29/derby-report"), source: "theguardian.com",
                 publishedAt: date("2026-11-29T21:15:42.123Z"), imageURL: url("https://i.guim.co.uk/img/derby.jpg")),
        Headline(id: "9112240", title: "Scientists map the deepest ocean trench in 3D",
                 url: url("https://www.nature.com/articles/d41586-026-03741-2"), source: "nature.com",
                 publishedAt: date("2026-11-29T20:59:59.999Z"), imageURL: nil),
        Headline(id: "9112222", title: "City council approves new cycle lanes",
                 url: url("https://apnews.com/article/cycle-lanes-city-council"), source: "apnews.com",
                 publishedAt: date("2026-11-29T20:30:00.000Z"), imageURL: url("https://dims.apnews.com/cycle.jpg")),
        Headline(id: "9112201", title: "Airline cancels flights after software outage",
                 url: url("https://www.cnbc.com/2026/11/29/airline-outage.html"), source: "cnbc.com",
                 publishedAt: date("2026-11-29T20:05:17Z"), imageURL: nil),
        Headline(id: "9112190", title: "Museum returns artefacts to their country of origin",
                 url: url("https://www.nytimes.com/2026/11/29/arts/museum-returns.html"), source: "nytimes.com",
                 publishedAt: date("2026-11-29T19:48:03.250Z"), imageURL: url("https://static01.nyt.com/museum.jpg")),
        Headline(id: "9112177", title: "Electric car sales pass petrol for the first time",
                 url: url("https://www.ft.com/content/ev-sales-milestone"), source: "ft.com",
                 publishedAt: date("2026-11-29T19:30:30.000Z"), imageURL: nil),
        Headline(id: "9112160", title: "Marathon runner breaks world record by 40 seconds",
                 url: url("https://www.espn.com/olympics/story/marathon-record"), source: "espn.com",
                 publishedAt: date("2026-11-29T19:02:11.001Z"), imageURL: url("https://a.espncdn.com/marathon.jpg")),
    ]
}
