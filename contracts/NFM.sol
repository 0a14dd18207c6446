// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// The marketplace's utility token (currency code FRR): a plain ERC20 with 18 decimals whose whole
/// supply is minted once, to `holder`, when it is deployed.
contract NFM is ERC20 {
    constructor(address holder, uint256 supply) ERC20("NFM", "NFM") {
        _mint(holder, supply);
    }
}
