import Interlude

/// The Arcade's world: a 30 x 12 grid of cells, one world unit each, with looping emitters
/// (fires and fountains, which block the way), pickups that chime, and the player.
///
/// Grid column x is world x, grid row z is world z: up on the screen is -z, the listener's
/// default forward, so what is drawn to the player's right is heard on the right.
struct ArcadeWorld {
    /// A looping sound placed in the world.
    struct Emitter {
        var symbol: Character
        var column: Int
        var row: Int
        var soundPath: String
        var gain: Float
        var pitch: Float
    }

    static let width = 30
    static let height = 12

    /// The player's cell.
    var player = (column: 2, row: 6)
    var emitters: [Emitter] = []
    var pickups: [(column: Int, row: Int)] = []
    var score = 0

    /// Fires, fountains and pickups where the layout puts them.
    init(fire: String, fountain: String) {
        let fires = [(6, 2), (24, 2), (6, 9), (24, 9)]
        let fountains = [(15, 5), (11, 10), (19, 1), (2, 1)]
        for (column, row) in fires {
            emitters.append(Emitter(symbol: "F", column: column, row: row, soundPath: fire, gain: 1, pitch: 1))
        }
        for (index, (column, row)) in fountains.enumerated() {
            // The wind, pitched up, passes for running water; each fountain a little different.
            emitters.append(Emitter(symbol: "~", column: column, row: row, soundPath: fountain, gain: 0.8,
                                    pitch: 1.6 + 0.15 * Float(index)))
        }
        pickups = [(10, 6), (20, 3), (27, 6), (14, 8), (4, 4), (22, 10)]
    }

    /// The world position of a cell, at ear height 0.
    static func position(column: Int, row: Int) -> Vector3 {
        Vector3(Float(column), 0, Float(row))
    }

    /// The player stands within `cells` of a fire (as the crow flies).
    func isNearFire(within cells: Double) -> Bool {
        emitters.contains { emitter in
            let columns = Double(emitter.column - player.column), rows = Double(emitter.row - player.row)
            return emitter.symbol == "F" && (columns * columns + rows * rows).squareRoot() <= cells
        }
    }

    /// The player's world position: the listener stands there.
    var playerPosition: Vector3 { Self.position(column: player.column, row: player.row) }

    /// What a step does.
    enum StepResult: Equatable {
        case blocked
        case moved
        case pickedUp(column: Int, row: Int)
    }

    /// Moves the player by one cell unless a wall or an emitter is in the way; collects a pickup.
    mutating func step(columns: Int, rows: Int) -> StepResult {
        let column = player.column + columns, row = player.row + rows
        guard (0..<Self.width).contains(column), (0..<Self.height).contains(row),
              !emitters.contains(where: { $0.column == column && $0.row == row }) else { return .blocked }
        player = (column, row)
        if let index = pickups.firstIndex(where: { $0.column == column && $0.row == row }) {
            pickups.remove(at: index)
            score += 1
            return .pickedUp(column: column, row: row)
        }
        return .moved
    }

    /// Puts the player on the cell nearest `position` (a restored listener), if it is free.
    mutating func placePlayer(near position: Vector3) {
        let column = Int(position.x.rounded()), row = Int(position.z.rounded())
        guard (0..<Self.width).contains(column), (0..<Self.height).contains(row),
              !emitters.contains(where: { $0.column == column && $0.row == row }) else { return }
        player = (column, row)
        pickups.removeAll { $0.column == column && $0.row == row }
    }

    /// The map, framed, one string per screen line.
    func mapLines() -> [String] {
        var grid = Array(repeating: Array(repeating: Character("."), count: Self.width), count: Self.height)
        for emitter in emitters { grid[emitter.row][emitter.column] = emitter.symbol }
        for pickup in pickups { grid[pickup.row][pickup.column] = "*" }
        grid[player.row][player.column] = "@"
        let border = "+" + String(repeating: "-", count: Self.width) + "+"
        return [border] + grid.map { "|" + String($0) + "|" } + [border]
    }
}
