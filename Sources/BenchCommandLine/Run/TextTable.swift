/// A plain-text table for the terminal: columns aligned, the first left and the rest right, two spaces apart.
enum TextTable {
    /// The header line, then one line per row; every row has the header's number of fields.
    static func lines(header: [String], rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { fields in
            fields.enumerated().map { index, field in
                let padding = String(repeating: " ", count: widths[index] - field.count)
                return index == 0 ? field + padding : padding + field
            }.joined(separator: "  ")
        }
    }
}
