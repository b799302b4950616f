import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

@Suite struct EnvironmentTests {
    @Test func parametersParseAndInvalidValuesListWhatIsAllowed() throws {
        let environment = try ViewEnvironment(parameters: ["colorScheme": "dark", "dynamicType": "accessibility3", "locale": "de-de", "width": "320"])
        #expect(environment == ViewEnvironment(colorScheme: .dark, dynamicType: .accessibility3, locale: "de-DE", width: 320))
        #expect(environment.key == "dark+accessibility3+de-DE+w320")
        #expect(try ViewEnvironment(parameters: [:]).isStandard)
        #expect(throws: EnvironmentError("colorScheme 'purple' is not allowed; allowed: light, dark", path: "/colorScheme")) {
            try ViewEnvironment(parameters: ["colorScheme": "purple"])
        }
        for bad in [["dynamicType": "huge"], ["locale": "not a locale"], ["locale": "e"], ["layoutDirection": "up"], ["width": "-3"], ["width": "1e3"]] {
            #expect(throws: EnvironmentError.self) { try ViewEnvironment(parameters: bad) }
        }
        do {
            _ = try ViewEnvironment(parameters: ["dynamicType": "huge"])
        } catch {
            #expect(error.path == "/dynamicType" && error.message.contains("xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, accessibility1"))
        }
        #expect(DynamicTypeSize.allCases.count == 12)
    }

    @Test func layoutDirectionFollowsTheLocaleUnlessSet() {
        #expect(ViewEnvironment(locale: "ar-EG").layoutDirection == .rtl)
        #expect(ViewEnvironment(locale: "he").layoutDirection == .rtl)
        #expect(ViewEnvironment(locale: "de-DE").layoutDirection == .ltr)
        #expect(ViewEnvironment(locale: "ar-EG", layoutDirection: .ltr).layoutDirection == .ltr)
    }

    @Test func numbersAndDatesAreFormattedPerLocaleWithoutTheMachine() {
        #expect(LocaleFormat("en-US").format(1234567.891, fractionDigits: 2) == "1,234,567.89")
        #expect(LocaleFormat("de-DE").format(1234567.891, fractionDigits: 2) == "1.234.567,89")
        #expect(LocaleFormat("fr-FR").format(1234.5, fractionDigits: 1) == "1\u{202F}234,5")
        #expect(LocaleFormat("de-DE").format(-0.04, fractionDigits: 1) == "0,0")
        #expect(LocaleFormat("de-DE").format(-8.05, fractionDigits: 1) == "-8,1")
        #expect(LocaleFormat("de-DE").format(1000) == "1.000")
        let date = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-23 UTC
        #expect(LocaleFormat("en-US").shortDate(date) == "11/23/2026")
        #expect(LocaleFormat("de-DE").shortDate(date) == "23.11.2026")
        #expect(LocaleFormat("ja-JP").shortDate(date) == "2026/11/23")
    }

    @Test func renderFunctionsReadTheEnvironment() throws {
        let catalog = try DemoCatalog.make()
        let story = try #require(catalog.story(id: "media-movie-detail--default"))
        let standard = TextProjection.render(try story.registeredView().get())
        let large = TextProjection.render(try story.registeredView(in: ViewEnvironment(dynamicType: .accessibility3)).get())
        let german = TextProjection.render(try story.registeredView(in: ViewEnvironment(locale: "de-DE")).get())
        let rtl = TextProjection.render(try story.registeredView(in: ViewEnvironment(layoutDirection: .rtl)).get())
        #expect(standard.contains("  hstack\n    badge \"2005\"") && large.contains("  vstack\n    badge \"2005\""))
        #expect(standard.contains("★ 8.1") && german.contains("★ 8,1"))
        #expect(standard.contains("chevron.left") && rtl.contains("chevron.right"))
        #expect(try story.registeredView(in: ViewEnvironment(colorScheme: .dark)).get() == story.registeredView().get())
        #expect(ViewEnvironment.current.isStandard)  // nothing leaks out of a render
        #expect(catalog.environments.count == 4)
    }

    @Test func documentsReflectTheEnvironment() {
        let html = HTMLProjection.document([.text("x")], title: "t", environment: ViewEnvironment(colorScheme: .dark, dynamicType: .accessibility5, locale: "ar-EG", width: 320))
        #expect(html.contains(#"<html lang="ar-EG" dir="rtl">"#))
        #expect(html.contains(":root { color-scheme: dark; font-size: 53px; }"))
        #expect(html.contains("body { width: 320px;"))
        #expect(HTMLProjection.document([.text("x")], title: "t").contains(#"<html lang="en-US" dir="ltr">"#))
    }
}
