import "FungibleToken"
import "NonFungibleToken"
import "MetadataViews"
import "FUSD"
import "VitrineNFT"
import "VitrineBlueprints"

/// VitrineOffers: offers of FUSD for a VitrineNFT, listed or not (the pattern of Dapper's OffersV2).
///
/// An offer is a resource in the buyer's own account, kept in the buyer's offer book. It holds a
/// capability to withdraw from the buyer's FUSD vault and the buyer's NFT receiver; the platform
/// holds no funds. The offer withdraws exactly its amount, and only when the NFT's holder accepts:
/// accepting hands over that NFT (the offer's id and type only), before the offer's expiry, while
/// the buyer's balance still covers the amount (else it fails with "no longer funded"). The amount
/// is split as a resale listing's price is (transactions/create_listing.cdc): each royalty the NFT
/// carries takes its cut, the platform (this contract's account) takes the blueprint's platform fee
/// rate, and the seller gets the rest. The offer is destroyed once accepted or canceled.
access(all) contract VitrineOffers {

    access(all) event OfferMade(offerId: UInt64, buyer: Address, nftId: UInt64, amount: UFix64, expiresAt: UFix64)
    access(all) event OfferCanceled(offerId: UInt64, buyer: Address, nftId: UInt64)
    /// `royalty` is the sum of the royalty cuts paid, `platformFee` the platform's cut, `sellerAmount` the rest.
    access(all) event OfferAccepted(
        offerId: UInt64,
        buyer: Address,
        seller: Address,
        nftId: UInt64,
        amount: UFix64,
        royalty: UFix64,
        platformFee: UFix64,
        sellerAmount: UFix64
    )

    access(all) let BookStoragePath: StoragePath
    access(all) let BookPublicPath: PublicPath
    /// The expiries an offer may have, in days.
    access(all) let expiryDays: [UInt8]
    /// The smallest and largest amount an offer may name, in FUSD ($1 to $10,000: a listing's range).
    access(all) let minAmount: UFix64
    access(all) let maxAmount: UFix64
    /// The platform fee rate of an NFT whose blueprint names none (metadata "platformFeeRate").
    access(all) let defaultPlatformFeeRate: UFix64

    /// Held by the book's owner: makes and cancels offers.
    access(all) entitlement Manage

    access(all) struct OfferDetails {
        access(all) let offerId: UInt64
        access(all) let buyer: Address
        access(all) let nftId: UInt64
        access(all) let amount: UFix64
        access(all) let expiresAt: UFix64
        /// Whether the buyer's FUSD balance covers the amount now.
        access(all) let funded: Bool
        access(all) let expired: Bool

        init(offerId: UInt64, buyer: Address, nftId: UInt64, amount: UFix64, expiresAt: UFix64, funded: Bool) {
            self.offerId = offerId
            self.buyer = buyer
            self.nftId = nftId
            self.amount = amount
            self.expiresAt = expiresAt
            self.funded = funded
            self.expired = getCurrentBlock().timestamp >= expiresAt
        }
    }

    /// The platform fee rate of `nft`: its blueprint's "platformFeeRate" metadata on VitrineBlueprints, else the default.
    access(all) view fun platformFeeRate(blueprintId: UInt64): UFix64 {
        if let blueprint = VitrineBlueprints.blueprint(id: blueprintId) {
            if let rate = UFix64.fromString(blueprint.metadata["platformFeeRate"] ?? "") {
                return rate
            }
        }
        return self.defaultPlatformFeeRate
    }

    access(all) resource Offer {
        access(all) let nftId: UInt64
        access(all) let amount: UFix64
        /// Block timestamp (seconds) from which the offer can no longer be accepted.
        access(all) let expiresAt: UFix64
        access(all) let paymentCapabilityId: UInt64
        access(self) let payment: Capability<auth(FungibleToken.Withdraw) &FUSD.Vault>
        access(self) let nftReceiver: Capability<&{NonFungibleToken.Receiver}>

        init(
            nftId: UInt64,
            amount: UFix64,
            expiresAt: UFix64,
            payment: Capability<auth(FungibleToken.Withdraw) &FUSD.Vault>,
            nftReceiver: Capability<&{NonFungibleToken.Receiver}>
        ) {
            self.nftId = nftId
            self.amount = amount
            self.expiresAt = expiresAt
            self.paymentCapabilityId = payment.id
            self.payment = payment
            self.nftReceiver = nftReceiver
        }

        access(all) view fun funded(): Bool {
            return (self.payment.borrow()?.balance ?? 0.0) >= self.amount
        }

        /// Pays the cuts from the buyer's vault and deposits `item` with the buyer; answers the event's split.
        access(contract) fun accept(
            item: @{NonFungibleToken.NFT},
            sellerReceiver: Capability<&{FungibleToken.Receiver}>
        ): [UFix64] {
            let label = "VitrineOffers: offer ".concat(self.uuid.toString())
            assert(item.getType() == Type<@VitrineNFT.NFT>(), message: label.concat(" is for a VitrineNFT"))
            assert(item.id == self.nftId, message: label.concat(" is for NFT ").concat(self.nftId.toString()).concat(", not ").concat(item.id.toString()))
            assert(getCurrentBlock().timestamp < self.expiresAt, message: label.concat(" has expired"))
            let vault = self.payment.borrow()
            assert(vault != nil && vault!.balance >= self.amount, message: label.concat(" is no longer funded: the buyer's FUSD balance does not cover it"))
            let seller = sellerReceiver.borrow() ?? panic(label.concat(": the seller has no FUSD receiver"))

            let payment <- vault!.withdraw(amount: self.amount)
            var royalty = 0.0
            if let royalties = item.resolveView(Type<MetadataViews.Royalties>()) as! MetadataViews.Royalties? {
                for cut in royalties.getRoyalties() {
                    let share = self.amount * cut.cut
                    if share > 0.0 {
                        let receiver = cut.receiver.borrow() ?? panic(label.concat(": a royalty receiver has no FUSD vault"))
                        receiver.deposit(from: <- payment.withdraw(amount: share))
                        royalty = royalty + share
                    }
                }
            }
            let nft = &item as &{NonFungibleToken.NFT} as! &VitrineNFT.NFT
            let platformFee = self.amount * VitrineOffers.platformFeeRate(blueprintId: nft.blueprintId)
            if platformFee > 0.0 {
                let platform = VitrineOffers.account.capabilities.borrow<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
                    ?? panic(label.concat(": the platform has no FUSD receiver"))
                platform.deposit(from: <- payment.withdraw(amount: platformFee))
            }
            let sellerAmount = payment.balance
            assert(sellerAmount > 0.0, message: label.concat(": royalties and platform fee leave nothing for the seller"))
            seller.deposit(from: <- payment)

            let receiver = self.nftReceiver.borrow() ?? panic(label.concat(": the buyer has no VitrineNFT collection"))
            receiver.deposit(token: <- item)
            return [royalty, platformFee, sellerAmount]
        }
    }

    access(all) resource interface BookPublic {
        access(all) view fun getOfferIds(): [UInt64]
        access(all) fun getDetails(offerId: UInt64): OfferDetails?
        /// Accepts offer `offerId` with `item` (its NFT), paying `sellerReceiver` the seller's share.
        access(all) fun accept(
            offerId: UInt64,
            item: @{NonFungibleToken.NFT},
            sellerReceiver: Capability<&{FungibleToken.Receiver}>
        )
    }

    access(all) resource Book: BookPublic {
        access(self) let offers: @{UInt64: Offer}

        init() {
            self.offers <- {}
        }

        access(all) view fun getOfferIds(): [UInt64] {
            return self.offers.keys
        }

        access(all) fun getDetails(offerId: UInt64): OfferDetails? {
            if let offer = &self.offers[offerId] as &Offer? {
                return OfferDetails(
                    offerId: offerId,
                    buyer: self.owner!.address,
                    nftId: offer.nftId,
                    amount: offer.amount,
                    expiresAt: offer.expiresAt,
                    funded: offer.funded()
                )
            }
            return nil
        }

        /// Makes an offer of `amount` FUSD for NFT `nftId`, accepted until `expiryDays` days from now; answers its id.
        access(Manage) fun make(
            nftId: UInt64,
            amount: UFix64,
            expiryDays: UInt8,
            payment: Capability<auth(FungibleToken.Withdraw) &FUSD.Vault>,
            nftReceiver: Capability<&{NonFungibleToken.Receiver}>
        ): UInt64 {
            pre {
                self.owner != nil: "VitrineOffers.make: the book must be in an account"
                amount >= VitrineOffers.minAmount && amount <= VitrineOffers.maxAmount: "VitrineOffers.make: the amount must be 1 to 10000 FUSD"
                VitrineOffers.expiryDays.contains(expiryDays): "VitrineOffers.make: the expiry must be 1, 3, 7 or 30 days"
                payment.check(): "VitrineOffers.make: the payment capability is not valid"
                payment.address == self.owner!.address: "VitrineOffers.make: the payment must come from the book's owner"
                nftReceiver.check(): "VitrineOffers.make: the NFT receiver is not valid"
            }
            let expiresAt = getCurrentBlock().timestamp + UFix64(expiryDays) * 86400.0
            let offer <- create Offer(nftId: nftId, amount: amount, expiresAt: expiresAt, payment: payment, nftReceiver: nftReceiver)
            let offerId = offer.uuid
            emit OfferMade(offerId: offerId, buyer: self.owner!.address, nftId: nftId, amount: amount, expiresAt: expiresAt)
            self.offers[offerId] <-! offer
            return offerId
        }

        /// Cancels offer `offerId`; answers the id of its payment capability (for the owner to delete).
        access(Manage) fun cancel(offerId: UInt64): UInt64 {
            let offer <- self.offers.remove(key: offerId)
                ?? panic("VitrineOffers.cancel: no offer ".concat(offerId.toString()))
            let capabilityId = offer.paymentCapabilityId
            emit OfferCanceled(offerId: offerId, buyer: self.owner!.address, nftId: offer.nftId)
            destroy offer
            return capabilityId
        }

        access(all) fun accept(
            offerId: UInt64,
            item: @{NonFungibleToken.NFT},
            sellerReceiver: Capability<&{FungibleToken.Receiver}>
        ) {
            let offer <- self.offers.remove(key: offerId)
                ?? panic("VitrineOffers: no offer ".concat(offerId.toString()).concat(" (accepted, canceled or never made)"))
            let nftId = offer.nftId
            let amount = offer.amount
            let split = offer.accept(item: <- item, sellerReceiver: sellerReceiver)
            destroy offer
            emit OfferAccepted(
                offerId: offerId,
                buyer: self.owner!.address,
                seller: sellerReceiver.address,
                nftId: nftId,
                amount: amount,
                royalty: split[0],
                platformFee: split[1],
                sellerAmount: split[2]
            )
        }
    }

    access(all) fun createBook(): @Book {
        return <- create Book()
    }

    init() {
        self.BookStoragePath = /storage/vitrineOfferBook
        self.BookPublicPath = /public/vitrineOfferBook
        self.expiryDays = [1, 3, 7, 30]
        self.minAmount = 1.0
        self.maxAmount = 10000.0
        self.defaultPlatformFeeRate = 0.05
    }
}
