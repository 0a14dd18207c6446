/// VitrineBlueprints: the blueprints (NFT templates) registered for sale. Publishing a blueprint in
/// a creator's dashboard registers it here, with its edition count and price; the registration is
/// what makes it purchasable. Only the holder of the Registrar (the deploying admin account)
/// registers or closes blueprints. Registering is idempotent: the same blueprint registered again
/// with the same terms changes nothing, so a retried publish job is harmless.
access(all) contract VitrineBlueprints {

    access(all) event Registered(id: UInt64, maxEditions: UInt64, price: UFix64, royalty: UFix64)
    access(all) event Closed(id: UInt64)

    access(all) let RegistrarStoragePath: StoragePath

    access(all) struct Blueprint {
        /// The blueprint's number (VitrineNFT.NFT.blueprintId of its editions).
        access(all) let id: UInt64
        access(all) let maxEditions: UInt64
        /// Price in FUSD (USD).
        access(all) let price: UFix64
        /// Creator royalty on resales, a cut (0.1 is 10%).
        access(all) let royalty: UFix64
        access(all) let metadata: {String: String}
        access(all) var open: Bool

        init(id: UInt64, maxEditions: UInt64, price: UFix64, royalty: UFix64, metadata: {String: String}) {
            self.id = id
            self.maxEditions = maxEditions
            self.price = price
            self.royalty = royalty
            self.metadata = metadata
            self.open = true
        }

        access(contract) fun close() {
            self.open = false
        }
    }

    access(self) let blueprints: {UInt64: Blueprint}

    access(all) view fun blueprint(id: UInt64): Blueprint? {
        return self.blueprints[id]
    }

    access(all) resource Registrar {
        access(all) fun register(
            id: UInt64,
            maxEditions: UInt64,
            price: UFix64,
            royalty: UFix64,
            metadata: {String: String}
        ) {
            pre {
                maxEditions > 0: "VitrineBlueprints.register: maxEditions must be positive"
                royalty < 1.0: "VitrineBlueprints.register: the royalty must be below 1.0"
            }
            if let existing = VitrineBlueprints.blueprints[id] {
                assert(
                    existing.maxEditions == maxEditions && existing.price == price && existing.royalty == royalty,
                    message: "VitrineBlueprints.register: blueprint ".concat(id.toString()).concat(" is registered with other terms")
                )
                return
            }
            VitrineBlueprints.blueprints[id] = Blueprint(
                id: id,
                maxEditions: maxEditions,
                price: price,
                royalty: royalty,
                metadata: metadata
            )
            emit Registered(id: id, maxEditions: maxEditions, price: price, royalty: royalty)
        }

        access(all) fun close(id: UInt64) {
            pre {
                VitrineBlueprints.blueprints[id] != nil: "VitrineBlueprints.close: blueprint ".concat(id.toString()).concat(" is not registered")
            }
            if VitrineBlueprints.blueprints[id]!.open {
                VitrineBlueprints.blueprints[id]!.close()
                emit Closed(id: id)
            }
        }
    }

    init() {
        self.RegistrarStoragePath = /storage/vitrineBlueprintRegistrar
        self.blueprints = {}
        self.account.storage.save(<- create Registrar(), to: self.RegistrarStoragePath)
    }
}
