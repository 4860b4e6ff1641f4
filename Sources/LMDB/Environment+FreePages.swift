import CLMDB

extension Environment {
    /// How many pages of the data file hold nothing now: pages freed by
    /// earlier transactions and kept for later ones. A bulk load leaves
    /// the pages its last commits freed (a transaction cannot reuse what the
    /// two before it freed), and the file never shrinks by itself:
    /// ``copy(to:)`` leaves them out.
    ///
    /// ```swift
    /// let wasted = try environment.freePages() * environment.pageSize
    /// ```
    ///
    /// Related LMDB documentation: `mdb_stat -f` (it reads the free-page
    /// database, `FREE_DBI`, the same way).
    public func freePages() throws -> Int {
        try read { txn in
            var cursor: OpaquePointer?
            // Database 0 is LMDB's free-page database: each record lists
            // pages one transaction freed, its first word their count.
            try check(mdb_cursor_open(txn.handle.pointer, 0, &cursor), "mdb_cursor_open")
            defer { mdb_cursor_close(cursor) }
            var key = MDB_val()
            var value = MDB_val()
            var pages = 0
            while true {
                let rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
                if rc == MDB_NOTFOUND { return pages }
                try check(rc, "mdb_cursor_get")
                guard value.mv_size >= MemoryLayout<Int>.size, let words = value.mv_data else { continue }
                pages += words.loadUnaligned(as: Int.self)
            }
        }
    }

    /// The size of a page of the data file, in bytes.
    public var pageSize: Int {
        info().pageSize
    }

    /// The length of the data file up to its last page, in pages.
    public var usedPages: Int {
        info().lastPage + 1
    }
}
