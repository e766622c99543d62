/// RFC 4180 encoding and decoding of comma-separated records: fields that contain a comma, a double quote,
/// a carriage return or a line feed are quoted, and quotes inside them doubled. Records end with CRLF on
/// output, as the RFC says; the reader accepts CRLF or LF.
package enum CSVFormat {
    /// One record as a line, CRLF included.
    package static func encode(_ fields: [String]) -> String {
        fields.map(encodeField).joined(separator: ",") + "\r\n"
    }

    /// A field, quoted when it must be.
    package static func encodeField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Every record of `text`. Throws on an unterminated quoted field or a stray character after a quote.
    package static func decode(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var fieldWasQuoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending = iterator.next()
        var line = 1
        while let scalar = pending {
            pending = iterator.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !fieldWasQuoted:
                inQuotes = true
                fieldWasQuoted = true
            case ",":
                record.append(field)
                field = ""
                fieldWasQuoted = false
            case "\r" where pending == "\n":
                continue
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
                fieldWasQuoted = false
                line += 1
            default:
                if fieldWasQuoted { throw CSVError(line: line, message: "text after a closing quote") }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw CSVError(line: line, message: "a quoted field is not closed") }
        if !field.isEmpty || fieldWasQuoted || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

/// A CSV text that does not follow RFC 4180.
package struct CSVError: Error, CustomStringConvertible {
    package let line: Int
    package let message: String
    package var description: String { "line \(line): \(message)" }
}
