import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

@Suite struct PropsDecodingTests {
    let catalog = try! DemoCatalog.make()

    private func error(_ storyID: String, _ json: String) throws -> PropsError? {
        let component = try #require(catalog.story(id: storyID)?.component)
        switch component.validate(try JSONParser.parse(json)) {
        case .success: return nil
        case .failure(let error): return error
        }
    }

    @Test func wrongTypeNamesTheFieldAndBothTypes() throws {
        let error = try #require(try error("profile-user-profile--default", #"{"name": 42, "email": "a@b", "avatarURL": null}"#))
        #expect(error.path.description == "/name")
        #expect(error.message == "expected a string, found a number")
    }

    @Test func missingField() throws {
        let error = try #require(try error("profile-user-profile--default", #"{"name": "Ada", "avatarURL": null}"#))
        #expect(error.path.description == "/email")
        #expect(error.message == "missing field email")
    }

    @Test func nullForARequiredField() throws {
        let error = try #require(try error("profile-user-profile--default", #"{"name": null, "email": "a@b"}"#))
        #expect(error.path.description == "/name")
        #expect(error.message == "expected a string, found null")
    }

    @Test func unknownEnumCase() throws {
        let error = try #require(try error("auth-login--loading", #"{"lodaing": {"cancel": "cancel"}}"#))
        #expect(error.path.description == "")
        #expect(error.message == "unknown case 'lodaing'")
    }

    @Test func wrongPayloadDeepInAnEnum() throws {
        let json = #"{"input": {"_0": {"username": {"value": 7, "update": "u"}, "password": {"value": "", "update": "p"}, "status": {"invalid": {}}}}}"#
        let error = try #require(try error("auth-login--empty", json))
        #expect(error.path.description == "/input/_0/username/value")
        #expect(error.message == "expected a string, found a number")
    }

    @Test func unknownRawValue() throws {
        let story = try #require(catalog.story(id: "maps-location-picker--default"))
        guard case .object(var members) = story.props else { Issue.record("props are not an object"); return }
        members["indicatorColor"] = "purple"
        guard case .failure(let error) = story.component.validate(.object(members)) else { Issue.record("accepted purple"); return }
        #expect(error.path.description == "/indicatorColor")
        #expect(error.message == #"unknown value "purple"; expected one of "red", "green", "blue", "orange""#)
    }

    @Test func unknownFieldsAreRejectedNotDropped() throws {
        let error = try #require(try error("profile-user-profile--default", #"{"name": "Ada", "email": "a@b", "avatarURL": null, "nmae": "x"}"#))
        #expect(error.path.description == "/nmae")
        #expect(error.message == "unknown field 'nmae'")
    }

    @Test func contractFixtureEncodesItsThreeFields() throws {
        let story = try #require(catalog.story(id: "profile-user-profile--no-avatar"))
        #expect(story.props == ["name": "Grace Hopper", "email": "grace@example.com", "avatarURL": nil])
        #expect(story.props.serialized() == #"{"avatarURL":null,"email":"grace@example.com","name":"Grace Hopper"}"#)
    }

    @Test func validationCanonicalizesAndAcceptsAbsentOptionals() throws {
        let component = try #require(catalog.component(id: "profile-user-profile"))
        let validated = try component.validate(try JSONParser.parse(#"{"name": "Ada", "email": "a@b"}"#)).get()
        #expect(validated.props == ["name": "Ada", "email": "a@b", "avatarURL": nil])
    }

    @Test func encoderWritesDatesURLsAndUUIDsAsStrings() throws {
        struct Sample: Codable { var date: Date; var url: URL; var id: UUID; var blob: Data; var maybe: Int? }
        let sample = Sample(date: Date(timeIntervalSince1970: 1_700_000_000.25), url: URL(string: "https://a.example/x?y=1")!,
                            id: UUID(uuidString: "0B8E1C3A-2D4F-4E6A-8B9C-1D2E3F405162")!, blob: Data([0, 1, 2, 255]), maybe: nil)
        let json = try JSONValueEncoder().encode(sample)
        #expect(json == ["date": "2023-11-14T22:13:20.250Z", "url": "https://a.example/x?y=1",
                         "id": "0B8E1C3A-2D4F-4E6A-8B9C-1D2E3F405162", "blob": "AAEC/w==", "maybe": nil])
        let decoded = try PropsDecoding.decode(Sample.self, from: json)
        #expect(decoded.date == sample.date)
        #expect(decoded.url == sample.url)
        #expect(decoded.id == sample.id)
        #expect(decoded.blob == sample.blob)
    }
}
