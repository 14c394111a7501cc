extension ValueHistory: Decodable where Value: Decodable {
    /// Decodes a history encoded by ``encode(to:)`` (the values oldest first, the current
    /// position, and the limit if there is one: `{"values":[1,2,3],"currentIndex":1}`),
    /// checking that it is one ``add(_:)`` could have built.
    ///
    /// Archives are input, so a hand-edited or truncated one throws
    /// `DecodingError.dataCorrupted`, naming the key and the problem, when `values` is empty,
    /// `currentIndex` is outside it, `limit` is below 1 or the count, or neighbours are equal.
    ///
    /// ```swift
    /// let json = Data(#"{"values":[1,2],"currentIndex":2}"#.utf8)
    /// try JSONDecoder().decode(ValueHistory<Int>.self, from: json)
    /// // DecodingError.dataCorrupted: currentIndex 2 is outside the 2 values (0..<2)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let values = try container.decode([Value].self, forKey: .values)
        let currentIndex = try container.decode(Int.self, forKey: .currentIndex)
        let limit = try container.decodeIfPresent(Int.self, forKey: .limit)

        func corrupted(_ key: CodingKeys, _ problem: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: container, debugDescription: "Invalid ValueHistory: \(problem)")
        }
        guard !values.isEmpty else {
            throw corrupted(.values, "values is empty; a history always holds its current value")
        }
        guard values.indices.contains(currentIndex) else {
            throw corrupted(
                .currentIndex,
                "currentIndex \(currentIndex) is outside the \(values.count) values (0..<\(values.count))"
            )
        }
        if let limit {
            guard limit >= 1 else {
                throw corrupted(.limit, "limit \(limit) is below 1")
            }
            guard values.count <= limit else {
                throw corrupted(.values, "\(values.count) values exceed the limit of \(limit)")
            }
        }
        // Else previous() or next() would "succeed" without changing anything.
        if let repeated = values.indices.dropFirst().first(where: { values[$0] == values[$0 - 1] }) {
            throw corrupted(.values, "values at indices \(repeated - 1) and \(repeated) are equal")
        }
        self.init(values: values, currentIndex: currentIndex, limit: limit)
    }
}
