/// Several store calls made as one transaction, where the store can.
public protocol StoreTransactions: Sendable {
    /// Runs `body`, whose calls to this store on the calling thread make one transaction
    /// where the store can: one lock and one commit for what one reply reads and writes,
    /// rather than one each. In the SQLite store an error thrown out of `body` undoes all
    /// of it (nested in another `together`, all of its own: what the outer body did before
    /// stands); elsewhere each call stands on its own, as outside of it. `body` must not
    /// wait for anything outside the process (a hook's command), nor for another thread's
    /// use of the store: others wait for it.
    func together<T>(_ body: () throws -> T) throws -> T
}

extension StoreTransactions {
    /// Each call its own transaction, as outside of `together` (the PostgreSQL store,
    /// whose calls each borrow a pooled connection).
    public func together<T>(_ body: () throws -> T) throws -> T { try body() }
}
